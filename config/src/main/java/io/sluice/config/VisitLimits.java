package io.sluice.config;

import java.time.Duration;
import java.util.Objects;

/**
 * How many visits (and copy, update-where, delete-where pages) {@code /document/v1} serves at once, and how they are
 * shared: Sluice's additions to {@code <document-api>}.
 *
 * @param maxVisits        visits served at once in all; more get 429
 * @param maxPerClient     visits one client may hold at once: its {@code <clients>} identity when access control is
 *                         on, else its address; more from it get 429 while the others still find slots
 * @param maxPerConnection visits one connection may hold at once (an HTTP/2 connection carries many)
 * @param stallTimeout     how long a visit's response may wait for its client to take a write before the visit is
 *                         ended and its slot freed
 */
public record VisitLimits(int maxVisits, int maxPerClient, int maxPerConnection, Duration stallTimeout) {

    /** Visits served at once by default: four 8-slice dumps. */
    public static final int DEFAULT_MAX_VISITS = 32;
    /** The stall timeout by default. */
    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(30);

    public VisitLimits {
        Objects.requireNonNull(stallTimeout, "stallTimeout");
        if (maxVisits < 1)
            throw new ConfigException("max-visits must be positive, but was " + maxVisits);
        if (maxPerClient < 1 || maxPerClient > maxVisits)
            throw new ConfigException("max-visits-per-client must be in [1, max-visits = " + maxVisits + "], but was "
                                      + maxPerClient);
        if (maxPerConnection < 1 || maxPerConnection > maxVisits)
            throw new ConfigException("max-visits-per-connection must be in [1, max-visits = " + maxVisits
                                      + "], but was " + maxPerConnection);
        if (stallTimeout.compareTo(Duration.ofSeconds(1)) < 0 || stallTimeout.compareTo(Duration.ofHours(1)) > 0)
            throw new ConfigException("visit-stall-timeout must be in [1, 3600] seconds, but was "
                                      + stallTimeout.toMillis() / 1000.0 + " seconds");
    }

    /**
     * Limits for {@code maxVisits} in all, with the per-client and per-connection limits derived from it where they
     * are 0 (not configured): half of it per client, a quarter per connection (at least 1 each), so one client leaves
     * half the slots to the others, and an 8-slice dump over one HTTP/2 connection fits the default of 32.
     */
    public static VisitLimits of(int maxVisits, int maxPerClient, int maxPerConnection, Duration stallTimeout) {
        return new VisitLimits(maxVisits,
                               maxPerClient > 0 ? maxPerClient : Math.max(1, maxVisits / 2),
                               maxPerConnection > 0 ? maxPerConnection : Math.max(1, maxVisits / 4),
                               stallTimeout);
    }

    /** 32 visits, 16 per client, 8 per connection, 30 s stall timeout. */
    public static VisitLimits defaults() {
        return of(DEFAULT_MAX_VISITS, 0, 0, DEFAULT_STALL_TIMEOUT);
    }

}
