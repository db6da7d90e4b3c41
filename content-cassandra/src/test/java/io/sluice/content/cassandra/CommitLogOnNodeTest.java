package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import io.sluice.content.cassandra.harness.SharedNode;
import io.sluice.document.DocumentTypes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The commit log mode as a real node reports it, and {@code require-synced-commitlog} against it: the harness's nodes
 * run {@code commitlog_sync: batch}, so a backend that requires a synced commit log opens.
 */
@Tag("cassandra")
class CommitLogOnNodeTest {

    @Test
    void node_reportsItsCommitLogMode() {
        CassandraOptions options = CassandraOptions.defaults("commitlog", 1)
                                                   .withContactPoints(List.of(SharedNode.get().nativeAddress()));
        try (CqlSession session = CassandraContentBackend.connect(options)) {
            Optional<CommitLogCheck.Mode> mode = CommitLogCheck.read(
                    session, session.getMetadata().getNodes().values().iterator().next());

            assertEquals("batch", mode.orElseThrow().sync());
        }
    }

    @Test
    void requireSyncedCommitlog_opensOnBatchNodes() {
        CassandraOptions options = CassandraOptions.defaults("commitlog", 1)
                                                   .withContactPoints(List.of(SharedNode.get().nativeAddress()))
                                                   .withRequireSyncedCommitlog(true);

        CassandraContentBackend.open(options, DocumentTypes.of(List.of())).close();
    }

}
