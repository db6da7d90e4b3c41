package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Locale;
import java.util.UUID;

/**
 * Checks, when a backend with timestamped writes opens, that every reachable Cassandra node's clock is within
 * {@code max-clock-skew} of this container's: the ordering of plain and Paxos writes rests on it (see
 * {@link WriteClock}). A node's clock is read as {@code now()} (a time UUID) from {@code system.local} on that node;
 * the best of a few round trips bounds the error. A node that is down or does not answer is skipped with a warning, so
 * a container can start while the cluster is degraded.
 */
final class ClockSkewCheck {

    /** 100-nanosecond intervals from the UUID epoch (1582-10-15) to the Unix epoch. */
    private static final long UUID_EPOCH_OFFSET = 0x01B21DD213814000L;
    /** Cassandra's {@code now()} ticks in milliseconds. */
    private static final long RESOLUTION_MICROS = 1_000;
    private static final int SAMPLES = 3;

    private static final Logger log = LoggerFactory.getLogger(ClockSkewCheck.class);

    private ClockSkewCheck() { }

    /**
     * @throws InvalidCassandraOptionException naming {@code max-clock-skew} if a node's clock is further off than it
     *                                         allows, by more than the measurement's error
     */
    static void check(CqlSession session, WriteClock clock, Duration maxSkew) {
        for (Node node : session.getMetadata().getNodes().values()) {
            if (node.getState() != NodeState.UP) {
                log.warn("Not checking the clock of Cassandra node {} against max-clock-skew: it is {}",
                         node.getEndPoint(), node.getState());
                continue;
            }
            Measurement best = null;
            try {
                for (int i = 0; i < SAMPLES; i++) {
                    Measurement sample = measure(session, node, clock);
                    if (sample != null && (best == null || sample.error() < best.error())) {
                        best = sample;
                    }
                }
            } catch (DriverException e) {
                log.warn("Not checking the clock of Cassandra node {} against max-clock-skew: {}", node.getEndPoint(),
                         e.toString());
                continue;
            }
            if (best == null) {
                log.warn("Not checking the clock of Cassandra node {} against max-clock-skew: system.local has no row",
                         node.getEndPoint());
                continue;
            }
            long maxMicros = maxSkew.toNanos() / 1_000;
            if (Math.abs(best.offset()) - best.error() > maxMicros) {
                throw new InvalidCassandraOptionException(
                        "max-clock-skew is " + millis(maxMicros) + " ms, but the clock of Cassandra node "
                        + node.getEndPoint() + " is " + millis(Math.abs(best.offset())) + " ms "
                        + (best.offset() > 0 ? "ahead of" : "behind") + " this container's (± "
                        + millis(best.error()) + " ms): timestamped writes could hide each other. Synchronize the "
                        + "clocks (NTP), raise max-clock-skew, or set write-mode to strict");
            }
            log.debug("Clock of Cassandra node {}: {} µs from this container's, ± {} µs", node.getEndPoint(),
                      best.offset(), best.error());
        }
    }

    /** How far the node's clock is ahead of ours (negative: behind), and the error bound of that, in µs. */
    private record Measurement(long offset, long error) { }

    /** One measurement; null if the node's {@code system.local} has no row. */
    private static Measurement measure(CqlSession session, Node node, WriteClock clock) {
        long before = clock.nowMicros();
        Row row = session.execute(SimpleStatement.newInstance("SELECT now() FROM system.local").setNode(node)).one();
        long after = clock.nowMicros();
        if (row == null) {
            return null;
        }
        long theirs = micros(row.getUuid(0));
        long ours = before + (after - before) / 2;
        return new Measurement(theirs - ours, (after - before) / 2 + RESOLUTION_MICROS);
    }

    /** The Unix time in microseconds of time UUID {@code uuid}. */
    static long micros(UUID uuid) {
        return (uuid.timestamp() - UUID_EPOCH_OFFSET) / 10;
    }

    private static String millis(long micros) {
        return String.format(Locale.ROOT, "%.1f", micros / 1000.0);
    }

}
