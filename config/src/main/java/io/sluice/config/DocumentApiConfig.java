package io.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * The {@code <document-api>} options.
 *
 * @param maxDocumentSize       largest request body, after gzip inflation, in bytes (default 100 MiB, 1–2048 MiB)
 * @param timeout               default operation timeout when a request has no {@code timeout} parameter
 * @param ignoreUndefinedFields skip fields not in the schema (reported in {@code X-Vespa-Ignored-Fields}) instead of 400
 * @param maxPendingDocs        operations pending (admitted, their backend call not completed) before 429; 0 when not
 *                              configured, which lets the handler derive a bound from the heap
 * @param maxPendingBytes       body bytes of pending operations before 429
 * @param visits                how many visits run at once, per client and in all, and when a stalled one is ended
 */
public record DocumentApiConfig(long maxDocumentSize, Duration timeout, boolean ignoreUndefinedFields,
                                int maxPendingDocs, long maxPendingBytes, VisitLimits visits) {

    public static final long MIB = 1L << 20;

    public DocumentApiConfig {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(visits, "visits");
        if (maxDocumentSize < MIB || maxDocumentSize > 2048 * MIB)
            throw new ConfigException("max-document-size must be in [1MiB, 2048MiB], but was " + maxDocumentSize + " bytes");
        if (timeout.isNegative() || timeout.isZero())
            throw new ConfigException("timeout must be positive, but was " + timeout);
        if (maxPendingDocs < 0)
            throw new ConfigException("maxpendingdocs must be positive, but was " + maxPendingDocs);
        if (maxPendingBytes <= 0)
            throw new ConfigException("maxpendingbytes must be positive, but was " + maxPendingBytes);
    }

    /** The options with the default {@link VisitLimits}. */
    public DocumentApiConfig(long maxDocumentSize, Duration timeout, boolean ignoreUndefinedFields, int maxPendingDocs,
                             long maxPendingBytes) {
        this(maxDocumentSize, timeout, ignoreUndefinedFields, maxPendingDocs, maxPendingBytes, VisitLimits.defaults());
    }

    public static DocumentApiConfig defaults() {
        return new DocumentApiConfig(100 * MIB, Duration.ofSeconds(180), false, 0, 100 * MIB);
    }

    /** These options with {@code visits} instead. */
    public DocumentApiConfig withVisits(VisitLimits visits) {
        return new DocumentApiConfig(maxDocumentSize, timeout, ignoreUndefinedFields, maxPendingDocs, maxPendingBytes, visits);
    }

}
