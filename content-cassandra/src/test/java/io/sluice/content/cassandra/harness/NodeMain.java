package io.sluice.content.cassandra.harness;

import java.lang.reflect.Method;
import java.util.Optional;

/**
 * Entry point of a test node's JVM: halts the node if the JVM that started it dies (even by SIGKILL, when no
 * shutdown hook runs), then runs Cassandra's own {@code CassandraDaemon}. Loaded from the test classes directory
 * beside the cassandra-all jars; Cassandra is called reflectively so this module never compiles against it.
 */
public final class NodeMain {

    private NodeMain() { }

    public static void main(String[] args) throws Exception {
        String parent = System.getProperty("sluice.parent.pid");
        if (parent != null) {
            Optional<ProcessHandle> handle = ProcessHandle.of(Long.parseLong(parent));
            if (handle.isEmpty()) {
                Runtime.getRuntime().halt(3);
            }
            handle.get().onExit().thenRun(() -> Runtime.getRuntime().halt(3));
        }
        Method main = Class.forName("org.apache.cassandra.service.CassandraDaemon").getMethod("main", String[].class);
        main.invoke(null, (Object) args);
    }

}
