package io.sluice.document.json;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.document.DataType;
import io.sluice.document.TensorModifyUpdate;
import io.sluice.document.TensorType;
import io.sluice.document.TensorValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a tensor {@code modify} argument: {@code {"operation": "replace"|"add"|"multiply", "cells": ..., "create":
 * bool}}, or {@code "blocks"} instead of {@code "cells"} for mixed tensors. Cells are read as for a tensor whose
 * dimensions are all mapped (so only the given cells count); blocks in the short object form give whole dense
 * subspaces.
 */
final class TensorModifyReader {

    private TensorModifyReader() {
    }

    static TensorModifyUpdate read(JsonParser parser, DataType type) throws IOException {
        if (!(type instanceof TensorType))
            throw new DocumentJsonException("Cannot modify a field of type " + type.typeName()
                                            + "; modify needs a tensor");
        TensorType tensorType = (TensorType) type;
        if (parser.currentToken() != JsonToken.START_OBJECT)
            throw new DocumentJsonException("Expected an object with \"operation\" and \"cells\" for modify, got "
                                            + JsonValueReader.describe(parser));
        TensorModifyUpdate.Operation operation = null;
        List<TensorModifyUpdate.Cell> cells = null;
        boolean create = false;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (name) {
                case "operation":
                    String text = value == JsonToken.VALUE_STRING ? parser.getText() : JsonValueReader.describe(parser);
                    operation = TensorModifyUpdate.Operation.fromJsonName(text).orElseThrow(() -> new DocumentJsonException(
                            "Unknown operation '" + text + "' in modify update; expected replace, add or multiply"));
                    break;
                case "create":
                    if (value != JsonToken.VALUE_TRUE && value != JsonToken.VALUE_FALSE)
                        throw new DocumentJsonException("Expected true or false for \"create\" in modify update, got "
                                                        + JsonValueReader.describe(parser));
                    create = value == JsonToken.VALUE_TRUE;
                    break;
                case "cells":
                    cells = cells(TensorJsonReader.read(parser, allMapped(tensorType)), tensorType);
                    break;
                case "blocks":
                    if (value != JsonToken.START_OBJECT)
                        throw new DocumentJsonException("Expected blocks as an object keyed by label in modify update, got "
                                                        + JsonValueReader.describe(parser));
                    cells = cells(TensorJsonReader.read(parser, tensorType), tensorType);
                    break;
                default:
                    throw new DocumentJsonException("Unknown key '" + name + "' in modify update; expected operation, "
                                                    + "cells, blocks or create");
            }
        }
        if (operation == null) throw new DocumentJsonException("Modify update has no \"operation\"");
        if (cells == null) throw new DocumentJsonException("Modify update has no \"cells\" or \"blocks\"");
        return new TensorModifyUpdate(operation, cells, create);
    }

    /** {@code [{"dim": "label", ...}, ...]}: partial addresses by dimension name. */
    static List<Map<String, String>> addresses(JsonParser parser) throws IOException {
        if (parser.currentToken() != JsonToken.START_ARRAY)
            throw new DocumentJsonException("Expected an array of addresses, got " + JsonValueReader.describe(parser));
        List<Map<String, String>> addresses = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            if (parser.currentToken() != JsonToken.START_OBJECT)
                throw new DocumentJsonException("Expected an address object, got " + JsonValueReader.describe(parser));
            Map<String, String> address = new LinkedHashMap<>();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String dimension = parser.currentName();
                JsonToken label = parser.nextToken();
                if (!label.isScalarValue() || label == JsonToken.VALUE_NULL)
                    throw new DocumentJsonException("Expected a label for dimension '" + dimension + "', got "
                                                    + JsonValueReader.describe(parser));
                address.put(dimension, parser.getText());
            }
            addresses.add(address);
        }
        return addresses;
    }

    /** The same dimensions, all mapped: a tensor of this type holds exactly the cells it was given. */
    private static TensorType allMapped(TensorType type) {
        List<TensorType.Dimension> mapped = new ArrayList<>();
        for (TensorType.Dimension dimension : type.dimensions()) mapped.add(TensorType.Dimension.mapped(dimension.name()));
        return TensorType.of(type.cellType(), mapped);
    }

    private static List<TensorModifyUpdate.Cell> cells(TensorValue tensor, TensorType type) {
        List<TensorModifyUpdate.Cell> cells = new ArrayList<>();
        tensor.forEachCell((address, value) -> {
            Map<String, String> labels = new LinkedHashMap<>();
            for (int i = 0; i < address.size(); i++) labels.put(type.dimensions().get(i).name(), address.get(i));
            cells.add(new TensorModifyUpdate.Cell(labels, value));
        });
        return cells;
    }
}
