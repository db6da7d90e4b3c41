package io.sluice.content.cassandra.harness;

import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;

/**
 * Runs a test cluster outside JUnit, for {@code bench/cassandra.sh}: starts {@code size} nodes on 127.0.0.1..N (the
 * same nodes the tests use), prints one line {@code ready <host:port,...> <pid ...>} (CQL contact points, then the
 * node JVMs' process ids), and keeps the nodes until this JVM ends. SIGTERM kills the nodes (the harness's shutdown
 * hook); after a SIGKILL they halt by themselves.
 *
 * <pre>
 * java -Dsluice.cassandra.lib=content-cassandra/target/cassandra-lib -Dsluice.cassandra.work=DIR \
 *      -cp content-cassandra/target/test-classes io.sluice.content.cassandra.harness.ClusterMain NAME SIZE
 * </pre>
 *
 * Extra JVM options for the nodes (e.g. a bigger heap) go in {@code -Dsluice.cassandra.node-options="..."}.
 */
public final class ClusterMain {

    private ClusterMain() { }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 2 || !args[1].matches("[1-8]")) {
            System.err.println("Usage: ClusterMain NAME SIZE, with SIZE in 1..8, but got " + String.join(" ", args));
            System.exit(2);
        }
        CassandraCluster cluster = CassandraCluster.start(args[0], Integer.parseInt(args[1]));
        String contactPoints = cluster.contactPoints().stream()
                                      .map(address -> address.getHostString() + ":" + address.getPort())
                                      .collect(Collectors.joining(","));
        String pids = ProcessHandle.current().children().map(child -> Long.toString(child.pid()))
                                   .collect(Collectors.joining(" "));
        System.out.println("ready " + contactPoints + " " + pids);
        System.out.flush();
        new CountDownLatch(1).await(); // until killed
    }

}
