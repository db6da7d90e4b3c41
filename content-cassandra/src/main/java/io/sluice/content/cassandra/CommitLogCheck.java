package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Says, when a backend opens, what an acknowledgement means on each reachable Cassandra node, read from the node's
 * own {@code commitlog_sync} setting ({@code system_views.settings}, Cassandra 4.0+): with {@code periodic} (Cassandra's
 * default, every 10 s) a node acknowledges a write before its commit log is fsynced, so a write acknowledged by a
 * quorum may be on no disk at all when power fails on those replicas at once; with {@code batch} or {@code group} it
 * acknowledges only after the fsync. With {@code require-synced-commitlog="true"} a node in periodic mode stops
 * start-up; a node that is down, or whose setting cannot be read, is logged and skipped, as {@link ClockSkewCheck}
 * does, so a container can start while the cluster is degraded.
 */
final class CommitLogCheck {

    /** One node's commit log setting, and what its acknowledgement promises. */
    record Mode(String sync, String period, String groupWindow) {

        /** Whether the node fsyncs its commit log before acknowledging a write. */
        boolean syncsBeforeAcknowledging() {
            return sync.equals("batch") || sync.equals("group");
        }

        /** What an acknowledgement from this node means, in a sentence for the start-up log. */
        String promise() {
            return switch (sync) {
                case "batch" -> "commitlog_sync: batch: a write is fsynced to its commit log before the node "
                                + "acknowledges it (survives power loss)";
                case "group" -> "commitlog_sync: group (window " + groupWindow + "): a write is fsynced to its "
                                + "commit log before the node acknowledges it (survives power loss)";
                case "periodic" -> "commitlog_sync: periodic (every " + period + "): the node acknowledges a write "
                                   + "before its commit log is fsynced; writes of the last " + period + " survive a "
                                   + "crash of Cassandra, not a power loss of every replica";
                default -> "commitlog_sync: " + sync + ": unknown to Sluice, so its promise is not known";
            };
        }

    }

    private static final Logger log = LoggerFactory.getLogger(CommitLogCheck.class);

    private CommitLogCheck() { }

    /**
     * Logs each reachable node's {@link Mode#promise()}.
     *
     * @throws InvalidCassandraOptionException naming {@code require-synced-commitlog} and every node in question if
     *                                         {@code requireSynced} and a node does not fsync before acknowledging
     */
    static void check(CqlSession session, boolean requireSynced) {
        List<String> unsynced = new ArrayList<>();
        for (Node node : session.getMetadata().getNodes().values()) {
            if (node.getState() != NodeState.UP) {
                log.warn("Not reading the commit log mode of Cassandra node {}: it is {}", node.getEndPoint(),
                         node.getState());
                continue;
            }
            Optional<Mode> mode;
            try {
                mode = read(session, node);
            } catch (DriverException e) {
                log.warn("Not reading the commit log mode of Cassandra node {}: {}", node.getEndPoint(), e.toString());
                continue;
            }
            if (mode.isEmpty()) {
                log.warn("Cassandra node {} does not say its commitlog_sync (system_views.settings has no row): "
                         + "what its acknowledgement means is not known", node.getEndPoint());
                continue;
            }
            String line = "Cassandra node " + node.getEndPoint() + ": " + mode.get().promise();
            if (mode.get().syncsBeforeAcknowledging()) {
                log.info(line);
            } else {
                log.warn(line);
                unsynced.add(node.getEndPoint() + " (" + mode.get().sync() + ")");
            }
        }
        if (requireSynced && !unsynced.isEmpty()) {
            throw new InvalidCassandraOptionException(
                    "require-synced-commitlog is true, but Cassandra node" + (unsynced.size() > 1 ? "s " : " ")
                    + String.join(", ", unsynced) + (unsynced.size() > 1 ? " acknowledge" : " acknowledges")
                    + " writes before fsyncing them: set commitlog_sync "
                    + "to batch or group in their cassandra.yaml, or set require-synced-commitlog to false");
        }
    }

    /** The mode of {@code node}, asked through {@code session}; empty if it has no commitlog_sync setting. */
    static Optional<Mode> read(CqlSession session, Node node) {
        return read(name -> {
            Row row = session.execute(SimpleStatement.newInstance(
                    "SELECT value FROM system_views.settings WHERE name = ?", name).setNode(node)).one();
            return row == null ? Optional.empty() : Optional.ofNullable(row.getString(0));
        });
    }

    /** A node's mode from its settings, looked up by name with {@code setting}; empty if it has no commitlog_sync. */
    static Optional<Mode> read(Function<String, Optional<String>> setting) {
        Optional<String> sync = setting.apply("commitlog_sync");
        if (sync.isEmpty()) {
            return Optional.empty();
        }
        String mode = sync.get().trim().toLowerCase(Locale.ROOT);
        String period = mode.equals("periodic") ? setting.apply("commitlog_sync_period").orElse("?") : "";
        String window = mode.equals("group") ? setting.apply("commitlog_sync_group_window").orElse("?") : "";
        return Optional.of(new Mode(mode, period, window));
    }

}
