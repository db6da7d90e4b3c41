package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.eclipse.jetty.http.HttpStatus;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The query parameters of a {@code /document/v1} request, parsed by the rules of spec §1.2: names are case-sensitive,
 * the last of repeated values wins, unknown names are ignored, and a parameter that is read must not be empty.
 * Every bad value is a {@link HttpStatusException} 400 with Vespa's text. Immutable.
 */
public final class RequestParameters {

    private static final RequestParameters NONE = new RequestParameters(Map.of());

    private final Map<String, String> values;

    private RequestParameters(Map<String, String> values) {
        this.values = values;
    }

    /**
     * Parses a raw (still percent-encoded) query string, or {@code null} for none. Names and values are form-decoded.
     *
     * @throws HttpStatusException 400 if a name or value is not valid percent-encoded UTF-8
     */
    public static RequestParameters parse(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty())
            return NONE;
        Map<String, String> values = new LinkedHashMap<>();
        for (String pair : rawQuery.split("&")) {
            if (pair.isEmpty())
                continue;
            int equals = pair.indexOf('=');
            String name = decode(equals < 0 ? pair : pair.substring(0, equals));
            String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
            values.remove(name); // keeps the order of last occurrence, like the last value
            values.put(name, value);
        }
        return new RequestParameters(values);
    }

    /** Parameters from already decoded name/value pairs, for tests and internal requests. */
    public static RequestParameters of(Map<String, String> values) {
        return new RequestParameters(new LinkedHashMap<>(values));
    }

    /** Whether the parameter is present, even with an empty value. */
    public boolean has(String name) {
        return values.containsKey(name);
    }

    /**
     * The value of the parameter, if present.
     *
     * @throws HttpStatusException 400 {@code Expected non-empty value for request property '<name>'} if present but empty
     */
    public Optional<String> string(String name) {
        String value = values.get(name);
        if (value == null)
            return Optional.empty();
        if (value.isEmpty())
            throw badRequest("Expected non-empty value for request property '" + name + "'");
        return Optional.of(value);
    }

    /** The parameter as {@link Boolean#parseBoolean}: {@code true} in any case is true, anything else false. */
    public Optional<Boolean> bool(String name) {
        return string(name).map(Boolean::parseBoolean);
    }

    /** The parameter as a decimal {@code int}; 400 with the parse error's text if it is not one. */
    public Optional<Integer> integer(String name) {
        return string(name).map(value -> {
            try {
                return Integer.parseInt(value);
            }
            catch (NumberFormatException e) {
                throw badRequest(e.getMessage());
            }
        });
    }

    /**
     * {@code tracelevel}, 0 when absent.
     *
     * @throws HttpStatusException 400 if it is not an integer from 0 to 9, the levels Vespa's traces have
     */
    public int traceLevel() {
        int level = integer("tracelevel").orElse(0);
        if (level < 0 || level > 9)
            throw badRequest("tracelevel must be from 0 to 9, but was " + level);
        return level;
    }

    /** The parameter as an unsigned 64-bit decimal (e.g. microsecond timestamps); 400 if it is not one. */
    public OptionalLong unsignedLong(String name) {
        Optional<String> value = string(name);
        if (value.isEmpty())
            return OptionalLong.empty();
        try {
            return OptionalLong.of(Long.parseUnsignedLong(value.get()));
        }
        catch (NumberFormatException e) {
            throw badRequest(e.getMessage());
        }
    }

    /**
     * The parameter as a duration {@code <number>[unit]}: the number is the leading run of digits and dots, the unit
     * what follows, trimmed: {@code ks}, {@code s}, {@code ms}, {@code µs}, and anything else means seconds.
     *
     * @throws HttpStatusException 400 if the value does not start with a number
     */
    public Optional<Duration> duration(String name) {
        return string(name).map(RequestParameters::parseDuration);
    }

    static Duration parseDuration(String value) {
        int end = 0;
        while (end < value.length() && (Character.isDigit(value.charAt(end)) || value.charAt(end) == '.'))
            end++;
        double number;
        try {
            number = Double.parseDouble(value.substring(0, end));
        }
        catch (NumberFormatException e) {
            throw badRequest("Invalid duration '" + value + "': " + e.getMessage());
        }
        double millis;
        switch (value.substring(end).trim()) {
            case "ks": millis = number * 1e6; break;
            case "ms": millis = number; break;
            case "µs": millis = number * 1e-3; break;
            default: millis = number * 1e3; break;
        }
        return Duration.ofNanos(Math.round(Math.min(millis, (double) Long.MAX_VALUE / 1e6) * 1e6));
    }

    /**
     * Rejects any of the named parameters, if present at all.
     *
     * @throws HttpStatusException 400 {@code May not specify '<name>' at '<path>'}
     */
    public void disallow(String rawPath, String... names) {
        for (String name : names)
            if (has(name))
                throw badRequest("May not specify '" + name + "' at '" + rawPath + "'");
    }

    /**
     * The value of a required parameter.
     *
     * @throws HttpStatusException 400 {@code Must specify '<name>' at '<path>'} if missing, or if empty
     */
    public String require(String rawPath, String name) {
        return string(name).orElseThrow(() -> badRequest("Must specify '" + name + "' at '" + rawPath + "'"));
    }

    private static String decode(String raw) {
        try {
            return URLDecoder.decode(raw, StandardCharsets.UTF_8);
        }
        catch (IllegalArgumentException e) {
            throw badRequest("Malformed query parameter '" + raw + "': " + e.getMessage());
        }
    }

    private static HttpStatusException badRequest(String message) {
        return new HttpStatusException(HttpStatus.BAD_REQUEST_400, message);
    }

    @Override
    public String toString() {
        return values.toString();
    }

}
