package io.sluice.content.cassandra;

import io.sluice.content.cassandra.harness.CassandraNode;
import io.sluice.content.cassandra.harness.SharedNode;
import org.junit.jupiter.api.Tag;

/** Plain writes and lightweight transactions on one document, as {@link MixedWritesTest}, on a node running Paxos v2 (Cassandra 4.1+'s optional, faster variant). */
@Tag("cassandra")
class MixedWritesOnPaxosV2Test extends MixedWritesTest {

    @Override
    protected CassandraNode node() {
        return SharedNode.paxosV2();
    }

}
