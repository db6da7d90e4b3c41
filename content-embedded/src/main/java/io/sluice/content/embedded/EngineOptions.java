package io.sluice.content.embedded;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Applies the text options of a services.xml {@code <engine><embedded .../></engine>} element to a builder. Sizes
 * are bytes with an optional {@code k}, {@code m} or {@code g} suffix (binary); durations are a number with
 * {@code s}, {@code m}, {@code h} or {@code d}, or ISO-8601 ({@code PT1H}).
 *
 * <table>
 *   <caption>Options</caption>
 *   <tr><th>Option</th><th>Sets</th></tr>
 *   <tr><td>{@code sync}</td><td>{@code true}: {@link Durability#SYNC}; {@code false}: {@link Durability#LOG}</td></tr>
 *   <tr><td>{@code tombstone-retention}</td><td>{@link EmbeddedOptions#tombstoneRetention()}</td></tr>
 *   <tr><td>{@code block-cache}</td><td>{@link EmbeddedOptions#blockCacheBytes()}</td></tr>
 *   <tr><td>{@code document-cache}</td><td>{@link EmbeddedOptions#documentCacheBytes()}</td></tr>
 *   <tr><td>{@code write-buffers}</td><td>{@link EmbeddedOptions#writeBufferBytes()}</td></tr>
 *   <tr><td>{@code min-free-disk}</td><td>{@link EmbeddedOptions#minFreeDiskBytes()}</td></tr>
 *   <tr><td>{@code threads}</td><td>{@link EmbeddedOptions#threads()}</td></tr>
 *   <tr><td>{@code max-pending}</td><td>{@link EmbeddedOptions#maxPendingOperations()}</td></tr>
 * </table>
 */
final class EngineOptions {

    private static final Set<String> KNOWN = new TreeSet<>(Set.of("sync", "tombstone-retention", "block-cache",
                                                                  "document-cache", "write-buffers", "min-free-disk",
                                                                  "threads", "max-pending"));

    private EngineOptions() { }

    /**
     * Applies {@code options} to {@code builder}.
     *
     * @throws IllegalArgumentException naming the option and its value if an option is unknown or its value bad
     */
    static void apply(Map<String, String> options, EmbeddedOptions.Builder builder) {
        for (Map.Entry<String, String> option : options.entrySet()) {
            String name = option.getKey();
            String value = option.getValue().trim();
            try {
                switch (name) {
                    case "sync": builder.durability(bool(value) ? Durability.SYNC : Durability.LOG); break;
                    case "tombstone-retention": builder.tombstoneRetention(duration(value)); break;
                    case "block-cache": builder.blockCacheBytes(bytes(value)); break;
                    case "document-cache": builder.documentCacheBytes(bytes(value)); break;
                    case "write-buffers": builder.writeBufferBytes(bytes(value)); break;
                    case "min-free-disk": builder.minFreeDiskBytes(bytes(value)); break;
                    case "threads": builder.threads(Integer.parseInt(value)); break;
                    case "max-pending": builder.maxPendingOperations(Integer.parseInt(value)); break;
                    default: throw new IllegalArgumentException("unknown option; known are " + KNOWN);
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Embedded engine option " + name + "='" + value + "' is invalid: "
                                                   + e.getMessage(), e);
            }
        }
    }

    private static boolean bool(String value) {
        if (value.equals("true") || value.equals("false")) {
            return Boolean.parseBoolean(value);
        }
        throw new IllegalArgumentException("expected true or false");
    }

    static long bytes(String value) {
        String lower = value.toLowerCase(Locale.ROOT);
        long unit = 1;
        if (lower.endsWith("k") || lower.endsWith("m") || lower.endsWith("g")) {
            unit = lower.endsWith("k") ? 1L << 10 : lower.endsWith("m") ? 1L << 20 : 1L << 30;
            lower = lower.substring(0, lower.length() - 1);
        }
        try {
            return Math.multiplyExact(Long.parseLong(lower), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("expected a byte count like 64m, 512k or 1073741824");
        }
    }

    static Duration duration(String value) {
        if (value.startsWith("P") || value.startsWith("p")) {
            try {
                return Duration.parse(value);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("expected a duration like 14d, 12h, 30m, 90s or PT1H");
            }
        }
        if (value.length() < 2) {
            throw new IllegalArgumentException("expected a duration like 14d, 12h, 30m, 90s or PT1H");
        }
        long amount;
        try {
            amount = Long.parseLong(value.substring(0, value.length() - 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a duration like 14d, 12h, 30m, 90s or PT1H");
        }
        switch (value.charAt(value.length() - 1)) {
            case 's': return Duration.ofSeconds(amount);
            case 'm': return Duration.ofMinutes(amount);
            case 'h': return Duration.ofHours(amount);
            case 'd': return Duration.ofDays(amount);
            default: throw new IllegalArgumentException("expected a duration like 14d, 12h, 30m, 90s or PT1H");
        }
    }

}
