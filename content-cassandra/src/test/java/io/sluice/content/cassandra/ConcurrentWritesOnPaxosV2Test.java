package io.sluice.content.cassandra;

import io.sluice.content.cassandra.harness.CassandraNode;
import io.sluice.content.cassandra.harness.SharedNode;
import org.junit.jupiter.api.Tag;

/** Racing conditional writes, as {@link ConcurrentWritesTest}, on a node running Paxos v2 (Cassandra 4.1+'s optional, faster variant). */
@Tag("cassandra")
class ConcurrentWritesOnPaxosV2Test extends ConcurrentWritesTest {

    @Override
    protected CassandraNode node() {
        return SharedNode.paxosV2();
    }

}
