package io.sluice.container.faults;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The two ways to write a {@link FaultPlan}.
 *
 * <p>The {@code --faults} spec: {@code none}, or rules separated by commas, each {@code FAULT@PERCENT%} followed by
 * any of {@code &method=M}, {@code &type=T}, {@code &id=GLOB}, where FAULT is {@code 429}, {@code 503}, {@code 504},
 * {@code 507}, {@code drop} or {@code delay=Nms}. Example: {@code 429@20%,503@5%&method=PUT,delay=200ms@1%&type=music}.
 *
 * <p>The admin endpoint's JSON: {@code {"faults": [{"fault": "429", "percent": 20, "method": "PUT", "type": "music",
 * "id": "id:ns:music::a*"}, {"fault": "delay", "delayMillis": 200, "percent": 1}], "seed": 42}}, where every rule
 * field but {@code fault} and {@code percent} is optional, and so is {@code seed}.
 */
public final class FaultSpec {

    public static final String NONE = "none";

    private static final JsonFactory json = new JsonFactory();

    /**
     * A plan and, from JSON, the seed to restart the random draws from.
     *
     * @param plan the faults
     * @param seed the new seed, if given
     */
    public record Parsed(FaultPlan plan, OptionalLong seed) { }

    private FaultSpec() { }

    /**
     * Parses a {@code --faults} spec.
     *
     * @throws IllegalArgumentException naming the bad rule and what is wrong with it
     */
    public static FaultPlan parse(String spec) {
        String trimmed = spec.trim();
        if (trimmed.equals(NONE))
            return FaultPlan.NONE;
        if (trimmed.isEmpty())
            throw new IllegalArgumentException("fault spec is empty; write 'none' for no faults");
        List<FaultRule> rules = new ArrayList<>();
        for (String rule : trimmed.split(",", -1))
            rules.add(rule(rule.trim()));
        return FaultPlan.of(rules);
    }

    private static FaultRule rule(String rule) {
        try {
            String[] parts = rule.split("&", -1);
            int at = parts[0].lastIndexOf('@');
            if (at < 0 || ! parts[0].endsWith("%"))
                throw new IllegalArgumentException("expected FAULT@PERCENT%, e.g. 429@20%");
            FaultRule.Fault fault = fault(parts[0].substring(0, at));
            double percent = number(parts[0].substring(at + 1, parts[0].length() - 1), "share");
            Optional<String> method = Optional.empty(), type = Optional.empty(), id = Optional.empty();
            for (int i = 1; i < parts.length; i++) {
                int equals = parts[i].indexOf('=');
                String key = equals < 0 ? parts[i] : parts[i].substring(0, equals);
                String value = equals < 0 ? "" : parts[i].substring(equals + 1);
                switch (key) {
                    case "method": method = once(method, key, value); break;
                    case "type": type = once(type, key, value); break;
                    case "id": id = once(id, key, value); break;
                    default: throw new IllegalArgumentException("'" + key + "' is not one of method, type, id");
                }
            }
            return new FaultRule(fault, percent, method, type, id);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad fault '" + rule + "': " + e.getMessage(), e);
        }
    }

    private static Optional<String> once(Optional<String> previous, String key, String value) {
        if (previous.isPresent())
            throw new IllegalArgumentException("'" + key + "' given twice");
        return Optional.of(value);
    }

    /** {@code 429}, {@code drop}, {@code delay=250ms}, ... */
    private static FaultRule.Fault fault(String text) {
        if (text.startsWith("delay=")) {
            String delay = text.substring("delay=".length());
            if ( ! delay.endsWith("ms"))
                throw new IllegalArgumentException("delay '" + delay + "' must be in milliseconds, e.g. delay=250ms");
            double millis = number(delay.substring(0, delay.length() - 2), "delay");
            if (millis != Math.rint(millis))
                throw new IllegalArgumentException("delay '" + delay + "' must be a whole number of milliseconds");
            return FaultRule.Fault.delay((long) millis);
        }
        if (text.equals("delay"))
            throw new IllegalArgumentException("delay needs a duration, e.g. delay=250ms");
        return FaultRule.Fault.of(FaultRule.Kind.named(text));
    }

    private static double number(String text, String what) {
        try {
            double value = Double.parseDouble(text);
            if (Double.isFinite(value) && ! text.isBlank() && Character.isDigit(text.charAt(text.length() - 1)))
                return value;
        }
        catch (NumberFormatException ignored) {
            // Named below.
        }
        throw new IllegalArgumentException(what + " '" + text + "' is not a number");
    }

    /**
     * Parses the admin endpoint's JSON.
     *
     * @throws IllegalArgumentException naming the bad field, rule or JSON syntax
     */
    public static Parsed parseJson(String body) {
        try (JsonParser parser = json.createParser(body)) {
            expect(parser, JsonToken.START_OBJECT, "the body must be a JSON object");
            FaultPlan plan = null;
            OptionalLong seed = OptionalLong.empty();
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (field) {
                    case "faults":
                        if (value != JsonToken.START_ARRAY)
                            throw new IllegalArgumentException("'faults' must be an array of fault objects");
                        List<FaultRule> rules = new ArrayList<>();
                        while (parser.nextToken() != JsonToken.END_ARRAY)
                            rules.add(jsonRule(parser, rules.size()));
                        plan = FaultPlan.of(rules);
                        break;
                    case "seed":
                        if (value != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER)
                            throw new IllegalArgumentException("'seed' must be an integer, but was " + parser.getText());
                        seed = OptionalLong.of(parser.getLongValue());
                        break;
                    default:
                        throw new IllegalArgumentException("unknown field '" + field + "'; known: faults, seed");
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null)
                throw new IllegalArgumentException("the body must be one JSON object");
            if (plan == null)
                throw new IllegalArgumentException("'faults' is missing; send \"faults\": [] for none");
            return new Parsed(plan, seed);
        }
        catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("the body is not valid JSON: " + e.getOriginalMessage(), e);
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException("Reading JSON from a string failed", e);
        }
    }

    private static FaultRule jsonRule(JsonParser parser, int index) throws IOException {
        String where = "faults[" + index + "]";
        if (parser.currentToken() != JsonToken.START_OBJECT)
            throw new IllegalArgumentException(where + " must be an object");
        String kind = null;
        Double percent = null;
        Long delay = null;
        Optional<String> method = Optional.empty(), type = Optional.empty(), id = Optional.empty();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            JsonToken value = parser.nextToken();
            switch (field) {
                case "fault": kind = text(parser, value, where, field); break;
                case "method": method = Optional.of(text(parser, value, where, field)); break;
                case "type": type = Optional.of(text(parser, value, where, field)); break;
                case "id": id = Optional.of(text(parser, value, where, field)); break;
                case "percent":
                    if ( ! value.isNumeric())
                        throw new IllegalArgumentException(where + ".percent must be a number, but was " + parser.getText());
                    percent = parser.getDoubleValue();
                    break;
                case "delayMillis":
                    if (value != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER)
                        throw new IllegalArgumentException(where + ".delayMillis must be an integer, but was " + parser.getText());
                    delay = parser.getLongValue();
                    break;
                default:
                    throw new IllegalArgumentException(where + ": unknown field '" + field
                                                       + "'; known: fault, percent, delayMillis, method, type, id");
            }
        }
        if (kind == null)
            throw new IllegalArgumentException(where + ".fault is missing");
        if (percent == null)
            throw new IllegalArgumentException(where + ".percent is missing");
        try {
            FaultRule.Kind named = FaultRule.Kind.named(kind);
            if (named == FaultRule.Kind.DELAY && delay == null)
                throw new IllegalArgumentException("delayMillis is missing");
            FaultRule.Fault fault = named == FaultRule.Kind.DELAY ? FaultRule.Fault.delay(delay)
                                                                  : new FaultRule.Fault(named, delay == null ? 0 : delay);
            return new FaultRule(fault, percent, method, type, id);
        }
        catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    private static String text(JsonParser parser, JsonToken value, String where, String field) throws IOException {
        if (value != JsonToken.VALUE_STRING)
            throw new IllegalArgumentException(where + "." + field + " must be a string, but was " + parser.getText());
        return parser.getText();
    }

    private static void expect(JsonParser parser, JsonToken token, String message) throws IOException {
        if (parser.nextToken() != token)
            throw new IllegalArgumentException(message);
    }

    /** A share as written back: {@code 20}, {@code 0.5}. */
    static String percent(double percent) {
        return new BigDecimal(Double.toString(percent)).stripTrailingZeros().toPlainString();
    }

}
