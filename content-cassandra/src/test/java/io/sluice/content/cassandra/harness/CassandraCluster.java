package io.sluice.content.cassandra.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A test cluster of Cassandra nodes on 127.0.0.1, 127.0.0.2, ...: the first is the seed; the others join it. Storage
 * and CQL ports are picked free on every address at creation and shared by the nodes (they differ by address); each
 * node has its own JMX port on 127.0.0.1 for nodetool. {@link #close()} kills every node.
 */
public final class CassandraCluster implements AutoCloseable {

    /** How long a node may take to start on a busy two-core machine. */
    public static final Duration START_TIMEOUT = Duration.ofMinutes(4);
    private static final int MAX_NODES = 8;
    /** Cassandra's own default; {@code -Dsluice.cassandra.paxos-variant=v2} runs every test cluster on Paxos v2. */
    public static final String DEFAULT_PAXOS_VARIANT = System.getProperty("sluice.cassandra.paxos-variant", "v1");

    private final String name;
    private final Path root;
    private final int storagePort;
    private final int nativePort;
    private final String paxosVariant;
    private final List<CassandraNode> nodes = new ArrayList<>();

    private CassandraCluster(String name, Path root, int storagePort, int nativePort, String paxosVariant) {
        this.name = name;
        this.paxosVariant = paxosVariant;
        this.root = root;
        this.storagePort = storagePort;
        this.nativePort = nativePort;
    }

    /**
     * Starts {@code size} nodes one after the other (nodes joining at once would pick the same tokens), and waits
     * until all serve CQL.
     */
    public static CassandraCluster start(String name, int size) {
        return start(name, size, DEFAULT_PAXOS_VARIANT);
    }

    /** Starts {@code size} nodes as {@link #start(String, int)} does, running Paxos {@code paxosVariant} (v1, v2). */
    public static CassandraCluster start(String name, int size, String paxosVariant) {
        CassandraCluster cluster = create(name, paxosVariant);
        try {
            for (int i = 0; i < size; i++) {
                cluster.addNode().start(START_TIMEOUT);
            }
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * A cluster with no nodes yet, with fresh ports and directory {@code target/cassandra-nodes/<name>}, running
     * Cassandra's default Paxos (v1) unless system property {@code sluice.cassandra.paxos-variant} says otherwise.
     */
    public static CassandraCluster create(String name) {
        return create(name, DEFAULT_PAXOS_VARIANT);
    }

    /** A cluster with no nodes yet, running Paxos {@code paxosVariant}. */
    public static CassandraCluster create(String name, String paxosVariant) {
        List<String> addresses = new ArrayList<>();
        for (int i = 1; i <= MAX_NODES; i++) {
            addresses.add("127.0.0." + i);
        }
        int storage = freePort(addresses, 0);
        int cql = freePort(addresses, storage);
        return new CassandraCluster(name, CassandraLib.workRoot().resolve(name + "-" + ProcessHandle.current().pid()),
                                    storage, cql, paxosVariant);
    }

    /** Configures the next node (127.0.0.N) without starting it. */
    public CassandraNode addNode() {
        int n = nodes.size() + 1;
        if (n > MAX_NODES) {
            throw new IllegalStateException("At most " + MAX_NODES + " nodes");
        }
        String address = "127.0.0." + n;
        int jmx = freePort(List.of("127.0.0.1"), 0);
        CassandraNode node = new CassandraNode(name, address, root.resolve(address), "127.0.0.1:" + storagePort,
                                               storagePort, nativePort, jmx, paxosVariant);
        nodes.add(node);
        return node;
    }

    /** Node {@code n}, counting from 1 (the one on 127.0.0.n). */
    public CassandraNode node(int n) {
        return nodes.get(n - 1);
    }

    public List<CassandraNode> nodes() {
        return List.copyOf(nodes);
    }

    /** CQL addresses of all nodes, running or not. */
    public List<InetSocketAddress> contactPoints() {
        return nodes.stream().map(CassandraNode::nativeAddress).collect(Collectors.toList());
    }

    /** Restarts a stopped or killed node, waiting until it serves CQL again. */
    public void restart(CassandraNode node) {
        node.start(START_TIMEOUT);
    }

    /** Kills every node. */
    @Override
    public void close() {
        nodes.forEach(CassandraNode::kill);
    }

    /** Kills every node and deletes their data, keeping their logs. */
    public void destroy() {
        close();
        nodes.forEach(CassandraNode::deleteData);
    }

    /** A port free on every one of {@code addresses}, other than {@code not}. */
    private static int freePort(List<String> addresses, int not) {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(addresses.get(0)))) {
                port = probe.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (port != not && freeOnAll(addresses, port)) {
                return port;
            }
        }
        throw new IllegalStateException("No port free on all of " + addresses);
    }

    private static boolean freeOnAll(List<String> addresses, int port) {
        for (String address : addresses) {
            try (ServerSocket probe = new ServerSocket(port, 1, InetAddress.getByName(address))) {
                probe.setReuseAddress(true);
            } catch (IOException e) {
                return false;
            }
        }
        return true;
    }

}
