package io.sluice.content.cassandra.harness;

/**
 * The one single-node cluster that every test class of a test JVM shares, started on first use. It is killed when
 * the JVM exits (shutdown hook), or by itself if the JVM dies without running hooks.
 */
public final class SharedNode {

    private static CassandraCluster cluster;

    private SharedNode() { }

    /** The shared node, started if need be. */
    public static synchronized CassandraNode get() {
        if (cluster == null) {
            cluster = CassandraCluster.start("single", 1);
        }
        return cluster.node(1);
    }

    /** Kills the shared node, if it runs, to free the machine for bigger clusters; {@link #get} starts a new one. */
    public static synchronized void release() {
        if (cluster != null) {
            cluster.destroy();
            cluster = null;
        }
    }

}
