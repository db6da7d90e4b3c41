package io.sluice.content.cassandra.harness;

/**
 * The one single-node cluster that every test class of a test JVM shares, started on first use. It is killed when
 * the JVM exits (shutdown hook), or by itself if the JVM dies without running hooks.
 */
public final class SharedNode {

    private static CassandraCluster cluster;
    private static CassandraCluster paxosV2;

    private SharedNode() { }

    /** The shared node, started if need be. */
    public static synchronized CassandraNode get() {
        if (cluster == null) {
            cluster = CassandraCluster.start("single", 1);
        }
        return cluster.node(1);
    }

    /** A second shared node that runs Paxos v2 (Cassandra 4.1's faster lightweight transactions), started if need be. */
    public static synchronized CassandraNode paxosV2() {
        if (paxosV2 == null) {
            paxosV2 = CassandraCluster.start("single-paxos-v2", 1, "v2");
        }
        return paxosV2.node(1);
    }

    /** Kills the shared node, if it runs, to free the machine for bigger clusters; {@link #get} starts a new one. */
    public static synchronized void release() {
        if (cluster != null) {
            cluster.destroy();
            cluster = null;
        }
        if (paxosV2 != null) {
            paxosV2.destroy();
            paxosV2 = null;
        }
    }

}
