package io.sluice.document.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.document.DocumentException;
import io.sluice.document.PositionValue;
import java.io.IOException;

/**
 * Positions in JSON: {@code {"lat":37.4,"lng":-122.0}} (also {@code latitude}/{@code longitude} in degrees, or
 * {@code x}/{@code y} in micro-degrees), or a string {@code "N37.4;W122.0"}. Always written as {@code lat}/{@code lng}.
 */
final class PositionJson {

    private PositionJson() {
    }

    static PositionValue read(JsonParser parser) throws IOException {
        if (parser.currentToken() == JsonToken.VALUE_STRING) return parseText(parser.getText());
        if (parser.currentToken() != JsonToken.START_OBJECT)
            throw new DocumentJsonException("Expected a position object or string, got " + JsonValueReader.describe(parser));
        Double latitude = null;
        Double longitude = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            parser.nextToken();
            switch (name) {
                case "lat": case "latitude": latitude = number(parser, name); break;
                case "lng": case "longitude": longitude = number(parser, name); break;
                case "y": latitude = number(parser, name) / 1e6; break;
                case "x": longitude = number(parser, name) / 1e6; break;
                default: throw new DocumentJsonException("Unknown position field '" + name + "'; expected lat and lng");
            }
        }
        if (latitude == null || longitude == null)
            throw new DocumentJsonException("A position needs both a latitude and a longitude");
        return position(latitude, longitude);
    }

    private static double number(JsonParser parser, String name) throws IOException {
        if (!parser.currentToken().isNumeric() && parser.currentToken() != JsonToken.VALUE_STRING)
            throw new DocumentJsonException("Expected a number for position '" + name + "', got "
                                            + JsonValueReader.describe(parser));
        try {
            return Double.parseDouble(parser.getText());
        } catch (NumberFormatException e) {
            throw new DocumentJsonException("Expected a number for position '" + name + "', got '"
                                            + parser.getText() + "'");
        }
    }

    /** Parses {@code N37.4;W122.0} (hemisphere letters, decimal degrees, either order). */
    static PositionValue parseText(String text) {
        String[] parts = text.split(";", -1);
        if (parts.length != 2) throw badText(text);
        Double latitude = null;
        Double longitude = null;
        for (String part : parts) {
            String trimmed = part.trim();
            if (trimmed.length() < 2) throw badText(text);
            double degrees;
            try {
                degrees = Double.parseDouble(trimmed.substring(1));
            } catch (NumberFormatException e) {
                throw badText(text);
            }
            if (!Double.isFinite(degrees) || degrees < 0) throw badText(text);
            switch (trimmed.charAt(0)) {
                case 'N': latitude = degrees; break;
                case 'S': latitude = -degrees; break;
                case 'E': longitude = degrees; break;
                case 'W': longitude = -degrees; break;
                default: throw badText(text);
            }
        }
        if (latitude == null || longitude == null) throw badText(text);
        return position(latitude, longitude);
    }

    private static PositionValue position(double latitude, double longitude) {
        try {
            return PositionValue.ofDegrees(latitude, longitude);
        } catch (DocumentException e) {
            throw new DocumentJsonException(e.getMessage(), e);
        }
    }

    private static DocumentJsonException badText(String text) {
        return new DocumentJsonException("Could not parse position '" + text + "'; expected e.g. 'N37.4;W122.0'");
    }

    static void write(JsonGenerator generator, PositionValue position) throws IOException {
        generator.writeStartObject();
        generator.writeNumberField("lat", position.latitude());
        generator.writeNumberField("lng", position.longitude());
        generator.writeEndObject();
    }
}
