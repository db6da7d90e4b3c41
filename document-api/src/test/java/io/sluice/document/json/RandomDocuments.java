package io.sluice.document.json;

import io.sluice.document.ArrayType;
import io.sluice.document.ArrayValue;
import io.sluice.document.BoolValue;
import io.sluice.document.ByteValue;
import io.sluice.document.DataType;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DoubleValue;
import io.sluice.document.Field;
import io.sluice.document.FieldValue;
import io.sluice.document.FloatValue;
import io.sluice.document.IntValue;
import io.sluice.document.LongValue;
import io.sluice.document.MapType;
import io.sluice.document.MapValue;
import io.sluice.document.PositionValue;
import io.sluice.document.PredicateValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.RawValue;
import io.sluice.document.ReferenceType;
import io.sluice.document.ReferenceValue;
import io.sluice.document.StringValue;
import io.sluice.document.StructType;
import io.sluice.document.StructValue;
import io.sluice.document.TensorType;
import io.sluice.document.TensorValue;
import io.sluice.document.UriValue;
import io.sluice.document.WeightedSetType;
import io.sluice.document.WeightedSetValue;
import io.sluice.document.predicate.Predicate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Generates random documents of any type from a seeded {@link Random}, including awkward values. */
final class RandomDocuments {

    private static final String CHARS = "aZ09 _-\"\\/\n\t\u0001æøå€\u4e2d\ud83d\ude00";
    private static final double[] DOUBLES = { 0.0, -0.0, 1.5, -1e300, Double.MIN_VALUE, Double.MAX_VALUE,
                                              Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 0.1 };

    private final Random random;

    RandomDocuments(long seed) {
        this.random = new Random(seed);
    }

    Document document(DocumentType type, DocumentId id) {
        Document.Builder builder = Document.builder(type, id);
        for (Field field : type.fields())
            if (random.nextBoolean()) builder.set(field.name(), value(field.type()));
        return builder.build();
    }

    FieldValue value(DataType type) {
        if (type instanceof PrimitiveType) return primitive((PrimitiveType) type);
        if (type instanceof ArrayType) {
            List<FieldValue> elements = new ArrayList<>();
            for (int i = random.nextInt(4); i > 0; i--) elements.add(value(((ArrayType) type).elementType()));
            return new ArrayValue(elements);
        }
        if (type instanceof WeightedSetType) {
            Map<FieldValue, Integer> weights = new LinkedHashMap<>();
            for (int i = random.nextInt(4); i > 0; i--)
                weights.put(value(((WeightedSetType) type).keyType()), random.nextInt());
            return new WeightedSetValue(weights);
        }
        if (type instanceof MapType) {
            MapType map = (MapType) type;
            Map<FieldValue, FieldValue> entries = new LinkedHashMap<>();
            for (int i = random.nextInt(4); i > 0; i--) entries.put(value(map.keyType()), value(map.valueType()));
            return new MapValue(entries);
        }
        if (type instanceof StructType) {
            Map<String, FieldValue> fields = new LinkedHashMap<>();
            for (Field field : ((StructType) type).fields())
                if (random.nextBoolean()) fields.put(field.name(), value(field.type()));
            return new StructValue(fields);
        }
        if (type instanceof TensorType) return tensor((TensorType) type);
        if (type instanceof ReferenceType)
            return new ReferenceValue(DocumentId.of("id:ns:" + ((ReferenceType) type).targetType() + "::" + random.nextInt(100)));
        throw new IllegalArgumentException("No generator for " + type);
    }

    private FieldValue primitive(PrimitiveType type) {
        switch (type) {
            case STRING: return new StringValue(text());
            case URI: return new UriValue(text());
            case PREDICATE: return new PredicateValue(predicate(2).toString());
            case INT: return new IntValue(random.nextBoolean() ? random.nextInt() : random.nextInt(3) - 1);
            case LONG: return new LongValue(random.nextBoolean() ? random.nextLong() : Long.MIN_VALUE);
            case BYTE: return new ByteValue((byte) random.nextInt());
            case BOOL: return BoolValue.of(random.nextBoolean());
            case FLOAT: return new FloatValue((float) number());
            case DOUBLE: return new DoubleValue(number());
            case RAW: {
                byte[] bytes = new byte[random.nextInt(6)];
                random.nextBytes(bytes);
                return RawValue.of(bytes);
            }
            case POSITION:
                return new PositionValue(random.nextInt(180_000_001) - 90_000_000, random.nextInt(360_000_001) - 180_000_000);
            default: throw new IllegalArgumentException("No generator for " + type);
        }
    }

    private TensorValue tensor(TensorType type) {
        TensorValue.Builder builder = TensorValue.builder(type);
        int blocks = type.mappedDimensions().isEmpty() ? 1 : random.nextInt(3);
        for (int b = 0; b < blocks; b++) {
            List<String> address = new ArrayList<>();
            for (int i = 0; i < type.mappedDimensions().size(); i++) address.add(text());
            double[] values = new double[type.denseSubspaceSize()];
            for (int i = 0; i < values.length; i++) values[i] = number();
            builder.block(address, values);
        }
        return builder.build();
    }

    private double number() {
        return random.nextBoolean() ? DOUBLES[random.nextInt(DOUBLES.length)] : random.nextGaussian() * 1000;
    }

    /** A predicate in canonical form, as the reader makes of client input. */
    private Predicate predicate(int depth) {
        switch (random.nextInt(depth == 0 ? 2 : 5)) {
            case 0: return new Predicate.FeatureSet(text(), List.of(text(), text()));
            case 1: return new Predicate.FeatureRange(text(), random.nextBoolean() ? null : (long) random.nextInt(5), null);
            case 2: return new Predicate.Negation(predicate(depth - 1));
            case 3: return new Predicate.Conjunction(List.of(predicate(depth - 1), predicate(depth - 1)));
            default: return new Predicate.Disjunction(List.of(predicate(depth - 1), predicate(depth - 1)));
        }
    }

    private String text() {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(5); i > 0; i--) {
            int at = random.nextInt(CHARS.length());
            if (Character.isSurrogate(CHARS.charAt(at))) text.append("\ud83d\ude00");
            else text.append(CHARS.charAt(at));
        }
        return text.toString();
    }
}
