package io.sluice.container;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Parses JSON into maps, lists, strings, longs, doubles, booleans and null, for structural assertions in tests. */
public final class JsonTree {

    private static final JsonFactory factory = new JsonFactory();

    private JsonTree() { }

    public static Object parse(String json) {
        try (JsonParser parser = factory.createParser(json)) {
            parser.nextToken();
            Object value = value(parser);
            if (parser.nextToken() != null)
                throw new IllegalArgumentException("Trailing content after JSON value: " + json);
            return value;
        }
        catch (IOException e) {
            throw new UncheckedIOException("Not JSON: " + json, e);
        }
    }

    /** The object at the root of {@code json}. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(String json) {
        return (Map<String, Object>) parse(json);
    }

    private static Object value(JsonParser parser) throws IOException {
        JsonToken token = parser.currentToken();
        switch (token) {
            case START_OBJECT: {
                var map = new LinkedHashMap<String, Object>();
                while (parser.nextToken() != JsonToken.END_OBJECT) {
                    String name = parser.currentName();
                    parser.nextToken();
                    map.put(name, value(parser));
                }
                return map;
            }
            case START_ARRAY: {
                List<Object> list = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY)
                    list.add(value(parser));
                return list;
            }
            case VALUE_STRING: return parser.getText();
            case VALUE_NUMBER_INT: return parser.getLongValue();
            case VALUE_NUMBER_FLOAT: return parser.getDoubleValue();
            case VALUE_TRUE: return true;
            case VALUE_FALSE: return false;
            case VALUE_NULL: return null;
            default: throw new IllegalArgumentException("Unexpected token " + token);
        }
    }

}
