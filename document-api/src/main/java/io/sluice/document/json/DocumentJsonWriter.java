package io.sluice.document.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.document.ArrayType;
import io.sluice.document.ArrayValue;
import io.sluice.document.BoolValue;
import io.sluice.document.ByteValue;
import io.sluice.document.DataType;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
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
import io.sluice.document.RawValue;
import io.sluice.document.ReferenceValue;
import io.sluice.document.StringValue;
import io.sluice.document.StructType;
import io.sluice.document.StructValue;
import io.sluice.document.TensorValue;
import io.sluice.document.UriValue;
import io.sluice.document.WeightedSetValue;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Writes documents in Vespa's JSON put format with a streaming generator: fields in declaration order, empty values
 * omitted, tensors in the chosen {@link TensorFormat}, raw as base64, positions as {@code {"lat","lng"}}, weighted
 * sets and maps as objects keyed by the key's string form. Thread-safe.
 */
public final class DocumentJsonWriter {

    private static final DocumentJsonWriter SHORT = new DocumentJsonWriter(TensorFormat.SHORT);

    private final TensorFormat tensorFormat;

    private DocumentJsonWriter(TensorFormat tensorFormat) {
        this.tensorFormat = Objects.requireNonNull(tensorFormat, "tensorFormat");
    }

    /** A writer rendering tensors in the default short form. */
    public static DocumentJsonWriter create() {
        return SHORT;
    }

    public static DocumentJsonWriter of(TensorFormat tensorFormat) {
        return tensorFormat == TensorFormat.SHORT ? SHORT : new DocumentJsonWriter(tensorFormat);
    }

    public TensorFormat tensorFormat() {
        return tensorFormat;
    }

    /** Writes {@code {"id":"<id>","fields":{...}}}, the form of visit results. */
    public void writeDocument(JsonGenerator generator, Document document) throws IOException {
        generator.writeStartObject();
        generator.writeStringField("id", document.id().toString());
        generator.writeFieldName("fields");
        writeFields(generator, document);
        generator.writeEndObject();
    }

    /** Writes {@code {"put":"<id>","fields":{...}}}, the form of feed files and JSONL visit results. */
    public void writePut(JsonGenerator generator, Document document) throws IOException {
        generator.writeStartObject();
        generator.writeStringField("put", document.id().toString());
        generator.writeFieldName("fields");
        writeFields(generator, document);
        generator.writeEndObject();
    }

    /**
     * {@link #writeDocument(JsonGenerator, Document)} for the document {@code id}, from {@code fields} as they are when
     * they are given (non-null) and this writer writes tensors as they are written there, else from {@code document}.
     */
    public void writeDocument(JsonGenerator generator, DocumentId id, FieldsJson fields, Supplier<Document> document)
            throws IOException {
        writeOperation(generator, "id", id, fields, document);
    }

    /** {@link #writePut(JsonGenerator, Document)} from {@code fields} when it can, as for {@link #writeDocument}. */
    public void writePut(JsonGenerator generator, DocumentId id, FieldsJson fields, Supplier<Document> document)
            throws IOException {
        writeOperation(generator, "put", id, fields, document);
    }

    private void writeOperation(JsonGenerator generator, String idField, DocumentId id, FieldsJson fields,
                                Supplier<Document> document) throws IOException {
        generator.writeStartObject();
        generator.writeStringField(idField, id.toString());
        generator.writeFieldName("fields");
        writeFields(generator, fields, document);
        generator.writeEndObject();
    }

    /** The fields object, from {@code fields} as they are when given and in this writer's form, else from {@code document}. */
    public void writeFields(JsonGenerator generator, FieldsJson fields, Supplier<Document> document) throws IOException {
        if (fields != null && tensorFormat == FieldsJson.TENSOR_FORMAT)
            generator.writeRawValue(new RawJson(fields));
        else
            writeFields(generator, document.get());
    }

    /** Writes the fields object {@code {"f":value,...}} of the document's set, non-empty fields. */
    public void writeFields(JsonGenerator generator, Document document) throws IOException {
        generator.writeStartObject();
        Map<String, FieldValue> values = document.fields();
        if (!values.isEmpty()) {
            for (Field field : document.type().fields()) {
                FieldValue value = values.get(field.name());
                if (value == null || value.isEmpty()) continue;
                generator.writeFieldName(field.name());
                writeValue(generator, field.type(), value);
            }
        }
        generator.writeEndObject();
    }

    /** {@link #writeDocument} as UTF-8 bytes. */
    public byte[] toJson(Document document) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator generator = DocumentJson.factory().createGenerator(out)) {
            writeDocument(generator, document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Writes one value of the given type in put format. */
    public void writeValue(JsonGenerator generator, DataType type, FieldValue value) throws IOException {
        if (value instanceof StringValue) generator.writeString(((StringValue) value).value());
        else if (value instanceof IntValue) generator.writeNumber(((IntValue) value).value());
        else if (value instanceof LongValue) generator.writeNumber(((LongValue) value).value());
        else if (value instanceof ByteValue) generator.writeNumber(((ByteValue) value).value());
        else if (value instanceof FloatValue) generator.writeNumber(((FloatValue) value).value());
        else if (value instanceof DoubleValue) generator.writeNumber(((DoubleValue) value).value());
        else if (value instanceof BoolValue) generator.writeBoolean(((BoolValue) value).value());
        else if (value instanceof RawValue) generator.writeString(((RawValue) value).toBase64());
        else if (value instanceof UriValue) generator.writeString(((UriValue) value).value());
        else if (value instanceof PredicateValue) generator.writeString(((PredicateValue) value).value());
        else if (value instanceof ReferenceValue) generator.writeString(((ReferenceValue) value).id().toString());
        else if (value instanceof PositionValue) PositionJson.write(generator, (PositionValue) value);
        else if (value instanceof TensorValue) TensorJsonWriter.write(generator, (TensorValue) value, tensorFormat);
        else if (value instanceof ArrayValue) writeArray(generator, (ArrayType) type, (ArrayValue) value);
        else if (value instanceof WeightedSetValue) writeWeightedSet(generator, (WeightedSetValue) value);
        else if (value instanceof MapValue) writeMap(generator, (MapType) type, (MapValue) value);
        else if (value instanceof StructValue) writeStruct(generator, (StructType) type, (StructValue) value);
        else throw new IllegalStateException("Unhandled value " + value);
    }

    private void writeArray(JsonGenerator generator, ArrayType type, ArrayValue array) throws IOException {
        generator.writeStartArray();
        for (FieldValue element : array.elements()) writeValue(generator, type.elementType(), element);
        generator.writeEndArray();
    }

    private static void writeWeightedSet(JsonGenerator generator, WeightedSetValue set) throws IOException {
        generator.writeStartObject();
        for (Map.Entry<FieldValue, Integer> entry : set.weights().entrySet()) {
            generator.writeFieldName(keyText(entry.getKey()));
            generator.writeNumber(entry.getValue());
        }
        generator.writeEndObject();
    }

    private void writeMap(JsonGenerator generator, MapType type, MapValue map) throws IOException {
        generator.writeStartObject();
        for (Map.Entry<FieldValue, FieldValue> entry : map.entries().entrySet()) {
            generator.writeFieldName(keyText(entry.getKey()));
            writeValue(generator, type.valueType(), entry.getValue());
        }
        generator.writeEndObject();
    }

    private void writeStruct(JsonGenerator generator, StructType type, StructValue struct) throws IOException {
        generator.writeStartObject();
        for (Field field : type.fields()) {
            FieldValue value = struct.get(field.name());
            if (value == null || value.isEmpty()) continue;
            generator.writeFieldName(field.name());
            writeValue(generator, field.type(), value);
        }
        generator.writeEndObject();
    }

    /** Map and weighted set keys are always strings: the text a reader parses back into the key type. */
    private static String keyText(FieldValue key) {
        if (key instanceof RawValue) return ((RawValue) key).toBase64();
        if (key instanceof PositionValue) {
            PositionValue position = (PositionValue) key;
            return (position.latitudeMicro() < 0 ? "S" : "N") + Math.abs(position.latitude()) + ";"
                   + (position.longitudeMicro() < 0 ? "W" : "E") + Math.abs(position.longitude());
        }
        return key.toString();
    }
}
