package io.sluice.document.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.document.DocumentException;
import io.sluice.document.TensorType;
import io.sluice.document.TensorValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a tensor in any of Vespa's JSON input forms: dense arrays (nested or flat) and hex strings, optionally under
 * {@code "values"}; single-mapped-dimension objects, optionally under {@code "cells"}; mixed blocks as an object
 * (one mapped dimension) or an array of {@code {"address","values"}}, optionally under {@code "blocks"}; and the
 * verbose {@code [{"address","value"}]} form, optionally under {@code "cells"}. A {@code "type"} string is ignored.
 */
final class TensorJsonReader {

    private TensorJsonReader() {
    }

    static TensorValue read(JsonParser parser, TensorType type) throws IOException {
        TensorValue.Builder builder = TensorValue.builder(type);
        try {
            JsonToken token = parser.currentToken();
            if (token == JsonToken.START_ARRAY) readArray(parser, builder);
            else if (token == JsonToken.VALUE_STRING) builder.block(List.of(), hexValues(parser.getText(), type, true));
            else if (token == JsonToken.START_OBJECT) readObject(parser, builder);
            else throw new DocumentJsonException("Expected a tensor, got " + JsonValueReader.describe(parser));
            return builder.build();
        } catch (DocumentJsonException e) {
            throw e;
        } catch (DocumentException e) {
            throw new DocumentJsonException(e.getMessage(), e);
        }
    }

    private static void readObject(JsonParser parser, TensorValue.Builder builder) throws IOException {
        TensorType type = builder.type();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            boolean wrapper = !value.isNumeric();
            if (wrapper && name.equals("type")) {
                parser.skipChildren();
            } else if (wrapper && name.equals("values")) {
                if (value == JsonToken.VALUE_STRING) builder.block(List.of(), hexValues(parser.getText(), type, true));
                else builder.block(List.of(), denseValues(parser, type, true));
            } else if (wrapper && name.equals("cells")) {
                if (value == JsonToken.START_ARRAY) readArray(parser, builder);
                else readMappedCells(parser, builder);
            } else if (wrapper && name.equals("blocks")) {
                if (value == JsonToken.START_ARRAY) readBlockList(parser, builder);
                else readBlockMap(parser, builder);
            } else {
                shortFormEntry(parser, builder, name);
            }
        }
    }

    /** {@code {"label": value, ...}} for one mapped dimension. */
    private static void readMappedCells(JsonParser parser, TensorValue.Builder builder) throws IOException {
        expectObject(parser, "cells");
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String label = parser.currentName();
            parser.nextToken();
            shortFormEntry(parser, builder, label);
        }
    }

    /** {@code {"label": [values] or "hex", ...}} for one mapped dimension plus indexed ones. */
    private static void readBlockMap(JsonParser parser, TensorValue.Builder builder) throws IOException {
        expectObject(parser, "blocks");
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String label = parser.currentName();
            parser.nextToken();
            shortFormEntry(parser, builder, label);
        }
    }

    /** One entry of a short form keyed by the single mapped dimension's label; the parser is on its value. */
    private static void shortFormEntry(JsonParser parser, TensorValue.Builder builder, String label) throws IOException {
        TensorType type = builder.type();
        if (type.mappedDimensions().size() != 1)
            throw new DocumentJsonException("Unexpected key '" + label + "' for tensor type " + type
                                            + ": short forms keyed by label need exactly one mapped dimension");
        if (type.indexedDimensions().isEmpty()) {
            builder.cell(List.of(label), cellValue(parser));
        } else if (parser.currentToken() == JsonToken.VALUE_STRING) {
            builder.block(List.of(label), hexValues(parser.getText(), type, false));
        } else {
            builder.block(List.of(label), denseValues(parser, type, false));
        }
    }

    /** {@code [{"address":{mapped labels},"values":[...] or "hex"}, ...]}. */
    private static void readBlockList(JsonParser parser, TensorValue.Builder builder) throws IOException {
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            expectObject(parser, "block");
            readCellOrBlock(parser, builder);
        }
    }

    private static List<String> mappedAddress(Map<String, String> labels, TensorType type) {
        if (labels.size() != type.mappedDimensions().size())
            throw new DocumentJsonException("Block address " + labels + " must name exactly the mapped dimensions of " + type);
        List<String> address = new ArrayList<>(labels.size());
        for (TensorType.Dimension dimension : type.mappedDimensions()) {
            String label = labels.get(dimension.name());
            if (label == null)
                throw new DocumentJsonException("Block address " + labels + " lacks dimension '" + dimension.name() + "'");
            address.add(label);
        }
        return address;
    }

    /** An array: dense values (possibly nested), or verbose cells when its elements are objects. */
    private static void readArray(JsonParser parser, TensorValue.Builder builder) throws IOException {
        JsonToken first = parser.nextToken();
        if (first == JsonToken.END_ARRAY && !builder.type().mappedDimensions().isEmpty()) return;
        if (first != JsonToken.START_OBJECT) {
            builder.block(List.of(), denseElements(parser, builder.type()));
            return;
        }
        do {
            readCellOrBlock(parser, builder);
        } while (parser.nextToken() == JsonToken.START_OBJECT);
        if (parser.currentToken() != JsonToken.END_ARRAY)
            throw new DocumentJsonException("Expected a tensor cell object, got " + JsonValueReader.describe(parser));
    }

    /**
     * A cell {@code {"address":{all dimensions},"value":v}} or a block {@code {"address":{mapped dimensions},
     * "values":[...] or "hex"}} (blocks may appear in bare arrays in the {@code short-value} output form).
     */
    private static void readCellOrBlock(JsonParser parser, TensorValue.Builder builder) throws IOException {
        Map<String, String> address = null;
        Double value = null;
        double[] values = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken token = parser.nextToken();
            if (name.equals("address")) address = readAddress(parser);
            else if (name.equals("value")) value = cellValue(parser);
            else if (name.equals("values"))
                values = token == JsonToken.VALUE_STRING ? hexValues(parser.getText(), builder.type(), false)
                                                         : denseValues(parser, builder.type(), false);
            else throw new DocumentJsonException("Unexpected key '" + name + "' in tensor cell; expected address and value");
        }
        if (address == null || (value == null) == (values == null))
            throw new DocumentJsonException("A tensor cell needs 'address' and 'value' (or 'values' for a block)");
        if (value != null) builder.cell(address, value);
        else builder.block(mappedAddress(address, builder.type()), values);
    }

    private static Map<String, String> readAddress(JsonParser parser) throws IOException {
        expectObject(parser, "address");
        Map<String, String> address = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String dimension = parser.currentName();
            JsonToken label = parser.nextToken();
            if (!label.isScalarValue() || label == JsonToken.VALUE_NULL)
                throw new DocumentJsonException("Expected a label for dimension '" + dimension + "', got "
                                                + JsonValueReader.describe(parser));
            address.put(dimension, parser.getText());
        }
        return address;
    }

    /** Dense values for an array at the current token; {@code whole} means all indexed cells of a dense tensor. */
    private static double[] denseValues(JsonParser parser, TensorType type, boolean whole) throws IOException {
        if (whole) requireIndexedOnly(type);
        if (parser.currentToken() != JsonToken.START_ARRAY)
            throw new DocumentJsonException("Expected an array of tensor cell values, got " + JsonValueReader.describe(parser));
        parser.nextToken();
        return denseElements(parser, type);
    }

    /** Reads the rest of an array whose first element is the current token, flattening nested arrays. */
    private static double[] denseElements(JsonParser parser, TensorType type) throws IOException {
        if (type.indexedDimensions().isEmpty())
            throw new DocumentJsonException("An array of values needs indexed dimensions, but the type is " + type);
        double[] values = new double[type.denseSubspaceSize()];
        int count = denseElements(parser, values, 0, 1, type);
        if (count != values.length)
            throw new DocumentJsonException("Expected " + values.length + " cell values for tensor type " + type
                                            + ", got " + count);
        return values;
    }

    private static int denseElements(JsonParser parser, double[] values, int count, int depth, TensorType type)
            throws IOException {
        for (JsonToken token = parser.currentToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (token == JsonToken.START_ARRAY) {
                if (depth >= type.indexedDimensions().size())
                    throw new DocumentJsonException("Tensor values are nested deeper than the dimensions of " + type);
                parser.nextToken();
                count = denseElements(parser, values, count, depth + 1, type);
            } else {
                if (count >= values.length)
                    throw new DocumentJsonException("Too many cell values for tensor type " + type + ", expected "
                                                    + values.length);
                values[count++] = cellValue(parser);
            }
        }
        return count;
    }

    private static double[] hexValues(String hex, TensorType type, boolean whole) {
        if (whole) requireIndexedOnly(type);
        if (type.indexedDimensions().isEmpty())
            throw new DocumentJsonException("A hex string needs indexed dimensions, but the type is " + type);
        int digits = type.cellType().hexDigits();
        int cells = type.denseSubspaceSize();
        if (hex.length() != (long) cells * digits)
            throw new DocumentJsonException("Expected " + cells * digits + " hex digits for " + cells + " cells of "
                                            + type + ", got " + hex.length());
        double[] values = new double[cells];
        for (int cell = 0; cell < cells; cell++) {
            long bits = 0;
            for (int i = cell * digits, end = i + digits; i < end; i++) {
                int nibble = Character.digit(hex.charAt(i), 16);
                if (nibble < 0)
                    throw new DocumentJsonException("Invalid hex digit '" + hex.charAt(i) + "' in tensor value");
                bits = (bits << 4) | nibble;
            }
            values[cell] = type.cellType().fromBits(bits);
        }
        return values;
    }

    private static double cellValue(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.VALUE_NUMBER_INT || token == JsonToken.VALUE_NUMBER_FLOAT) return parser.getDoubleValue();
        if (token == JsonToken.VALUE_STRING) {
            try {
                return Double.parseDouble(parser.getText());
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new DocumentJsonException("Expected a tensor cell value, got " + JsonValueReader.describe(parser));
    }

    private static void requireIndexedOnly(TensorType type) {
        if (!type.mappedDimensions().isEmpty())
            throw new DocumentJsonException("Dense tensor values need a tensor type without mapped dimensions, but got "
                                            + type);
    }

    private static void expectObject(JsonParser parser, String what) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT)
            throw new DocumentJsonException("Expected an object for tensor " + what + ", got "
                                            + JsonValueReader.describe(parser));
    }
}
