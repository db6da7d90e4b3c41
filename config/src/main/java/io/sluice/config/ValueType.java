package io.sluice.config;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How to read one kind of value from services.xml text, and what to call it when the text is not such a value.
 *
 * @param description completes "'x' is not ...", e.g. {@code a valid port}
 * @param parser      the value of trimmed text, or empty if the text is not valid
 */
record ValueType<T>(String description, Function<String, Optional<T>> parser) {

    static final ValueType<Integer> PORT = new ValueType<>("a valid port", text -> integer(text, 0, 65535));

    /** {@code xsd:boolean}: true, false, 1 or 0. */
    static final ValueType<Boolean> BOOLEAN = new ValueType<>("a valid boolean (true or false)", ValueType::bool);

    static final ValueType<Integer> POSITIVE_INT =
            new ValueType<>("a positive integer", text -> integer(text, 1, Integer.MAX_VALUE));

    static final ValueType<Long> POSITIVE_LONG = new ValueType<>("a positive integer", ValueType::positiveLong);

    static final ValueType<Integer> NON_NEGATIVE_INT =
            new ValueType<>("a non-negative integer", text -> integer(text, 0, Integer.MAX_VALUE));

    /** Seconds as in Vespa's config definitions ({@code double}): {@code 90}, {@code 0.5}. Not negative. */
    static final ValueType<Duration> SECONDS = new ValueType<>("a valid number of seconds", ValueType::seconds);

    static final ValueType<Duration> POSITIVE_SECONDS = new ValueType<>(
            "a positive number of seconds", text -> seconds(text).filter(duration -> ! duration.isZero()));

    /** Bytes, or a whole number with a binary unit: {@code 1048576}, {@code 512KiB}, {@code 100MiB}, {@code 2GiB}. */
    static final ValueType<Long> BYTE_SIZE =
            new ValueType<>("a valid size (bytes, or a number with B, KiB, MiB or GiB)", ValueType::byteSize);

    private static final Pattern SIZE = Pattern.compile("([0-9]+)\\s*(b|kib|mib|gib)?");

    ValueType {
        Objects.requireNonNull(description, "description");
        Objects.requireNonNull(parser, "parser");
    }

    Optional<T> parse(String text) {
        return parser.apply(text.trim());
    }

    static Optional<Integer> integer(String text, int min, int max) {
        try {
            int value = Integer.parseInt(text);
            return value < min || value > max ? Optional.empty() : Optional.of(value);
        }
        catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<Long> positiveLong(String text) {
        try {
            long value = Long.parseLong(text);
            return value < 1 ? Optional.empty() : Optional.of(value);
        }
        catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<Boolean> bool(String text) {
        switch (text) {
            case "true": case "1": return Optional.of(true);
            case "false": case "0": return Optional.of(false);
            default: return Optional.empty();
        }
    }

    private static Optional<Duration> seconds(String text) {
        if ( ! text.matches("[0-9]+(\\.[0-9]*)?|\\.[0-9]+")) return Optional.empty(); // no sign, exponent, NaN
        try {
            long nanos = new BigDecimal(text).movePointRight(9).setScale(0, RoundingMode.UP).longValueExact();
            return Optional.of(Duration.ofNanos(nanos));
        }
        catch (ArithmeticException e) { // beyond ~292 years
            return Optional.empty();
        }
    }

    private static Optional<Long> byteSize(String text) {
        Matcher matcher = SIZE.matcher(text.toLowerCase(Locale.ROOT));
        if ( ! matcher.matches()) return Optional.empty();
        int shift = matcher.group(2) == null ? 0 : switch (matcher.group(2)) {
            case "kib" -> 10;
            case "mib" -> 20;
            case "gib" -> 30;
            default -> 0;
        };
        try {
            long amount = Long.parseLong(matcher.group(1));
            return amount > (Long.MAX_VALUE >> shift) ? Optional.empty() : Optional.of(amount << shift);
        }
        catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

}
