package io.sluice.document.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.document.ArrayType;
import io.sluice.document.ArrayValue;
import io.sluice.document.DataType;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.Field;
import io.sluice.document.FieldPath;
import io.sluice.document.FieldPathUpdate;
import io.sluice.document.FieldValue;
import io.sluice.document.MapType;
import io.sluice.document.PrimitiveType;
import io.sluice.document.TensorAddUpdate;
import io.sluice.document.TensorRemoveUpdate;
import io.sluice.document.TensorType;
import io.sluice.document.ValueUpdate;
import io.sluice.document.WeightedSetType;
import io.sluice.document.WeightedSetValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the operations object of one key of an update's {@code "fields"}: {@code {"<op>": <arg>, ...}}. The parser is
 * on the object's start and is left on its end. Errors are {@link DocumentJsonException}s (or model
 * {@link io.sluice.document.DocumentException}s) without the field prefix, which the caller adds.
 */
final class UpdateOperationReader {

    private final JsonValueReader values;

    UpdateOperationReader(JsonValueReader values) {
        this.values = values;
    }

    /** Reads the operations on a top-level field into {@code update}. */
    void readFieldOperations(JsonParser parser, Field field, DocumentUpdate.Builder update) throws IOException {
        expectOperations(parser);
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String operation = parser.currentName();
            parser.nextToken();
            ValueUpdate read = operation(parser, operation, field.type(), field.name());
            read.check(field.type()); // here, so the message is not prefixed with the field name twice
            update.update(field.name(), read);
        }
    }

    /** Reads the operations on a field path (names case-insensitive, as in Vespa) into {@code update}. */
    void readPathOperations(JsonParser parser, DocumentType type, String pathText, DocumentUpdate.Builder update)
            throws IOException {
        FieldPath path = FieldPath.parse(type, pathText);
        expectOperations(parser);
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String operation = parser.currentName().toLowerCase(java.util.Locale.ROOT);
            parser.nextToken();
            update.update(new FieldPathUpdate(path, pathOperation(parser, operation, path)));
        }
    }

    private static void expectOperations(JsonParser parser) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT)
            throw new DocumentJsonException("Expected an object of update operations, got "
                                            + JsonValueReader.describe(parser));
    }

    /** One operation; {@code name} is the field, for naming ignored struct fields inside values. */
    private ValueUpdate operation(JsonParser parser, String operation, DataType type, String name) throws IOException {
        switch (operation) {
            case "assign":
                if (JsonValueReader.isUnset(parser, type)) return new ValueUpdate.Clear();
                return new ValueUpdate.Assign(values.read(parser, type, name));
            case "add": return add(parser, type, name);
            case "remove": return remove(parser, type, name);
            case "match": return match(parser, type, name);
            case "modify": return TensorModifyReader.read(parser, type);
            default:
                Optional<ValueUpdate.Arithmetic.Operator> operator = ValueUpdate.Arithmetic.Operator.fromJsonName(operation);
                if (operator.isPresent() && operator.get().jsonName().equals(operation))
                    return new ValueUpdate.Arithmetic(operator.get(), operand(parser, operation));
                throw new DocumentJsonException("Unknown update operation '" + operation + "'; expected assign, add, "
                                                + "remove, increment, decrement, multiply, divide, match or modify");
        }
    }

    private ValueUpdate add(JsonParser parser, DataType type, String name) throws IOException {
        if (type instanceof TensorType) return new TensorAddUpdate(TensorJsonReader.read(parser, (TensorType) type));
        if (type instanceof ArrayType) return new ValueUpdate.AddElements(((ArrayValue) values.read(parser, type, name)).elements());
        if (type instanceof WeightedSetType)
            return new ValueUpdate.AddWeighted(((WeightedSetValue) values.read(parser, type, name)).weights());
        throw new DocumentJsonException("Cannot add to a field of type " + type.typeName()
                                        + "; add needs an array, weighted set or tensor");
    }

    private ValueUpdate remove(JsonParser parser, DataType type, String name) throws IOException {
        if (type instanceof TensorType) return tensorRemove(parser, (TensorType) type);
        if (type instanceof ArrayType) return new ValueUpdate.RemoveValues(((ArrayValue) values.read(parser, type, name)).elements());
        if (type instanceof WeightedSetType) {
            if (parser.currentToken() == JsonToken.START_ARRAY) {
                ArrayType keys = new ArrayType(((WeightedSetType) type).keyType());
                return new ValueUpdate.RemoveValues(((ArrayValue) values.read(parser, keys, name)).elements());
            }
            Map<FieldValue, Integer> keys = ((WeightedSetValue) values.read(parser, type, name)).weights();
            return new ValueUpdate.RemoveValues(new ArrayList<>(keys.keySet()));
        }
        if (type instanceof MapType)
            throw new DocumentJsonException("Cannot remove from a map field directly; use the field path "
                                            + "'field{key}' with remove");
        throw new DocumentJsonException("Cannot remove from a field of type " + type.typeName()
                                        + "; remove needs an array, weighted set or tensor");
    }

    /** {@code {"addresses": [{"dim": "label", ...}, ...]}}. */
    private static ValueUpdate tensorRemove(JsonParser parser, TensorType type) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT)
            throw new DocumentJsonException("Expected an object with \"addresses\" for tensor remove, got "
                                            + JsonValueReader.describe(parser));
        List<Map<String, String>> addresses = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            if (!name.equals("addresses"))
                throw new DocumentJsonException("Unknown key '" + name + "' in tensor remove; expected \"addresses\"");
            addresses = TensorModifyReader.addresses(parser);
        }
        if (addresses == null) throw new DocumentJsonException("Tensor remove for " + type + " has no \"addresses\"");
        return new TensorRemoveUpdate(addresses);
    }

    /** {@code {"element": <index or key>, "<op>": <arg>}}, exactly one operation. */
    private ValueUpdate match(JsonParser parser, DataType type, String field) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT)
            throw new DocumentJsonException("Expected an object with \"element\" and an operation for match, got "
                                            + JsonValueReader.describe(parser));
        DataType keyType;
        DataType elementType;
        if (type instanceof ArrayType) {
            keyType = PrimitiveType.INT;
            elementType = ((ArrayType) type).elementType();
        } else if (type instanceof WeightedSetType) {
            keyType = ((WeightedSetType) type).keyType();
            elementType = PrimitiveType.INT;
        } else if (type instanceof MapType) {
            keyType = ((MapType) type).keyType();
            elementType = ((MapType) type).valueType();
        } else {
            throw new DocumentJsonException("Cannot match elements of a field of type " + type.typeName()
                                            + "; match needs an array, weighted set or map");
        }
        FieldValue key = null;
        ValueUpdate update = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            if (name.equals("element")) {
                if (!parser.currentToken().isScalarValue() || parser.currentToken() == JsonToken.VALUE_NULL)
                    throw new DocumentJsonException("Expected a key or index for match element, got "
                                                    + JsonValueReader.describe(parser));
                key = values.read(parser, keyType);
            } else if (update != null) {
                throw new DocumentJsonException("Match takes one operation, got another: '" + name + "'");
            } else {
                update = operation(parser, name, elementType, field);
            }
        }
        if (key == null) throw new DocumentJsonException("Match has no \"element\"");
        if (update == null) throw new DocumentJsonException("Match has no operation");
        return new ValueUpdate.Match(key, update);
    }

    private FieldPathUpdate.Operation pathOperation(JsonParser parser, String operation, FieldPath path)
            throws IOException {
        DataType type = path.resultType();
        switch (operation) {
            case "assign":
                if (JsonValueReader.isUnset(parser, type)) return new FieldPathUpdate.Remove();
                return new FieldPathUpdate.Assign(values.read(parser, type, path.text()));
            case "add":
                if (!(type instanceof ArrayType))
                    throw new DocumentJsonException("Cannot add to a value of type " + type.typeName()
                                                    + "; field path add needs an array");
                return new FieldPathUpdate.Add((ArrayValue) values.read(parser, type, path.text()));
            case "remove":
                if (!parser.currentToken().isScalarValue())
                    throw new DocumentJsonException("Expected a scalar argument to remove, got "
                                                    + JsonValueReader.describe(parser));
                return new FieldPathUpdate.Remove();
            default:
                Optional<ValueUpdate.Arithmetic.Operator> operator = ValueUpdate.Arithmetic.Operator.fromJsonName(operation);
                if (operator.isEmpty())
                    throw new DocumentJsonException("Field path update type '" + operation + "' not supported.");
                return new FieldPathUpdate.Arithmetic(operator.get(), operand(parser, operation));
        }
    }

    /**
     * An arithmetic operand, refused when the result could only be garbage: an operand beyond double range (which would
     * silently saturate the field), not a number, or a zero divisor.
     */
    private static double operand(JsonParser parser, String operation) throws IOException {
        String text = parser.getText();
        double operand = number(parser, operation);
        if ( ! Double.isFinite(operand))
            throw new DocumentJsonException("Operand " + text + " of " + operation + " is out of range: arithmetic needs a finite number");
        if (operand == 0 && operation.equalsIgnoreCase("divide"))
            throw new DocumentJsonException("Division by zero: cannot divide by " + text);
        return operand;
    }

    /** An arithmetic operand: any scalar whose text is a number, as Vespa parses it (as a double). */
    private static double number(JsonParser parser, String operation) throws IOException {
        JsonToken token = parser.currentToken();
        if (token.isScalarValue() && token != JsonToken.VALUE_NULL) {
            try {
                return Double.parseDouble(parser.getText());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new DocumentJsonException("Expected a number for " + operation + ", got " + JsonValueReader.describe(parser));
    }
}
