package io.sluice.content.cassandra.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One Cassandra node in a child JVM, for tests: its own loopback address (127.0.0.N), a generated cassandra.yaml in its
 * own directory, a small heap, and Cassandra's JDK 17 options (from its {@code jvm17-server.options}). The node dies
 * with the JVM that started it: a shutdown hook kills it, and the node itself halts when its parent disappears.
 */
public final class CassandraNode {

    /** Cassandra's JVM options for JDK 17 (conf/jvm17-server.options and the essentials of jvm-server.options). */
    static final List<String> JVM17_OPTIONS = List.of(
            "-ea", "-da:net.openhft...", "-Xss256k", "-XX:+UseThreadPriorities", "-XX:+PerfDisableSharedMem",
            "-Djava.net.preferIPv4Stack=true",
            "-XX:+UseG1GC", "-XX:+ParallelRefProcEnabled", "-XX:MaxTenuringThreshold=1",
            "-XX:G1HeapRegionSize=16m", "-XX:G1RSetUpdatingPauseTimePercent=5", "-XX:MaxGCPauseMillis=300",
            "-XX:InitiatingHeapOccupancyPercent=70",
            "-Djdk.attach.allowAttachSelf=true",
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--add-exports", "java.management.rmi/com.sun.jmx.remote.internal.rmi=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.registry=ALL-UNNAMED",
            "--add-exports", "java.rmi/sun.rmi.server=ALL-UNNAMED",
            "--add-exports", "java.sql/java.sql=ALL-UNNAMED",
            "--add-exports", "java.base/java.lang.ref=ALL-UNNAMED",
            "--add-exports", "jdk.unsupported/sun.misc=ALL-UNNAMED",
            "--add-exports", "jdk.compiler/com.sun.tools.javac.file=ALL-UNNAMED",
            "--add-exports", "jdk.attach/sun.tools.attach=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.loader=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.reflect=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.math=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.module=ALL-UNNAMED",
            "--add-opens", "java.base/jdk.internal.util.jar=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.base/java.io=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang.reflect=ALL-UNNAMED",
            "--add-opens", "jdk.compiler/com.sun.tools.javac=ALL-UNNAMED",
            "--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--add-opens", "java.base/java.util=ALL-UNNAMED",
            "-Dio.netty.tryReflectionSetAccessible=true",
            "-Dio.netty.allocator.useCacheForAllThreads=true",
            "-Dio.netty.allocator.maxOrder=11");

    /** Small-machine settings: a modest heap, C1 only (faster start, less JIT CPU), few threads, fast joins. */
    private static final List<String> TEST_OPTIONS = List.of(
            "-Xms256m", "-Xmx512m", "-XX:MaxDirectMemorySize=256m", "-XX:TieredStopAtLevel=1",
            "-XX:ActiveProcessorCount=2", "-Dcassandra.available_processors=2",
            "-Dcassandra-foreground=yes", "-Dcassandra.skip_wait_for_gossip_to_settle=0",
            "-Dcassandra.ring_delay_ms=3000",
            "-Dcassandra.superuser_setup_delay_ms=0");

    private static final Set<Process> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(Process::destroyForcibly)));
    }

    private final String clusterName;
    private final String address;
    private final Path directory;
    private final String seeds;
    private final int storagePort;
    private final int nativePort;
    private final int jmxPort;
    private final String paxosVariant;
    private volatile Process process;

    /** The system property that chooses every harness node's commit log mode; see {@link #commitLogSync()}. */
    public static final String COMMIT_LOG_SYNC_PROPERTY = "sluice.cassandra.commitlog-sync";

    CassandraNode(String clusterName, String address, Path directory, String seeds, int storagePort, int nativePort,
                  int jmxPort, String paxosVariant) {
        this.clusterName = clusterName;
        this.address = address;
        this.directory = directory;
        this.seeds = seeds;
        this.storagePort = storagePort;
        this.nativePort = nativePort;
        this.jmxPort = jmxPort;
        this.paxosVariant = paxosVariant;
    }

    /** The CQL address of the node. */
    public InetSocketAddress nativeAddress() {
        return new InetSocketAddress(address, nativePort);
    }

    /** The node's listen address, 127.0.0.N. */
    public String address() {
        return address;
    }

    /** The node's Cassandra log. */
    public Path logFile() {
        return directory.resolve("system.log");
    }

    /** Whether the node's JVM is alive. */
    public boolean isRunning() {
        Process running = process;
        return running != null && running.isAlive();
    }

    /** Starts the node's JVM (writing its configuration the first time) without waiting for it. */
    public synchronized void launch() {
        if (isRunning()) {
            throw new IllegalStateException("Node " + address + " is already running");
        }
        try {
            Files.createDirectories(directory);
            Path yaml = directory.resolve("cassandra.yaml");
            if (!Files.exists(yaml)) {
                Files.writeString(yaml, yaml(), StandardCharsets.UTF_8);
                Files.writeString(directory.resolve("logback.xml"), logback(), StandardCharsets.UTF_8);
            }
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(JVM17_OPTIONS);
            command.addAll(TEST_OPTIONS);
            command.addAll(extraOptions());
            command.add("-Dcassandra.config=" + yaml.toUri());
            command.add("-Dcassandra.storagedir=" + directory);
            command.add("-Dcassandra.logdir=" + directory);
            command.add("-Dlogback.configurationFile=" + directory.resolve("logback.xml"));
            command.add("-Dcassandra.jmx.local.port=" + jmxPort);
            command.add("-Dsluice.parent.pid=" + ProcessHandle.current().pid());
            command.add("-cp");
            command.add(CassandraLib.classPath());
            command.add(NodeMain.class.getName());
            Process started = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("out.log").toFile()))
                    .start();
            RUNNING.add(started);
            process = started;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start Cassandra node " + address, e);
        }
    }

    /**
     * JVM options added after the test options, so they override them: {@code sluice.cassandra.node-options},
     * separated by spaces (benchmarks use it for a full JIT and a bigger heap).
     */
    private static List<String> extraOptions() {
        String options = System.getProperty("sluice.cassandra.node-options", "").trim();
        return options.isEmpty() ? List.of() : List.of(options.split("\\s+"));
    }

    /** Waits until the node accepts CQL connections. */
    public void awaitReady(Duration timeout) {
        Instant end = Instant.now().plus(timeout);
        while (Instant.now().isBefore(end)) {
            if (!isRunning()) {
                throw new IllegalStateException("Cassandra node " + address + " exited with "
                                                + process.exitValue() + "; see " + directory.resolve("out.log")
                                                + " and system.log");
            }
            try (Socket socket = new Socket()) {
                socket.connect(nativeAddress(), 200);
                return;
            } catch (IOException notYet) {
                pause(Duration.ofMillis(500));
            }
        }
        throw new IllegalStateException("Cassandra node " + address + " did not open " + nativeAddress() + " within "
                                        + timeout + "; see " + directory.resolve("system.log"));
    }

    /** Starts the node and waits until it serves CQL. */
    public void start(Duration timeout) {
        launch();
        awaitReady(timeout);
    }

    /** Kills the node's JVM with SIGKILL, as a crash would, and waits until it is gone. */
    public void kill() {
        Process running = process;
        if (running != null) {
            running.destroyForcibly();
            waitFor(running);
        }
    }

    /** Stops the node's JVM (SIGTERM, then SIGKILL after 30 s). */
    public void stop() {
        Process running = process;
        if (running != null) {
            running.destroy();
            try {
                if (!running.waitFor(30, TimeUnit.SECONDS)) {
                    running.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running.destroyForcibly();
            }
            waitFor(running);
        }
    }

    private static void waitFor(Process running) {
        try {
            running.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        RUNNING.remove(running);
    }

    /**
     * Runs {@code nodetool} against this node through JMX (Cassandra's NodeTool class in a child JVM) and returns its
     * output.
     *
     * @throws IllegalStateException with the output if it fails
     */
    public String nodetool(Duration timeout, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JVM17_OPTIONS);
        command.addAll(List.of("-Xmx128m", "-XX:TieredStopAtLevel=1", "-Dlogback.configurationFile="
                                                                     + directory.resolve("logback-tool.xml")));
        command.add("-cp");
        command.add(CassandraLib.classPath());
        command.add("org.apache.cassandra.tools.NodeTool");
        command.addAll(List.of("-h", "127.0.0.1", "-p", Integer.toString(jmxPort)));
        command.addAll(List.of(args));
        try {
            Files.writeString(directory.resolve("logback-tool.xml"),
                              "<configuration><root level=\"OFF\"/></configuration>\n");
            Process tool = new ProcessBuilder(command).redirectErrorStream(true).start();
            RUNNING.add(tool);
            try {
                if (!tool.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    tool.destroyForcibly();
                    throw new IllegalStateException("nodetool " + String.join(" ", args) + " on " + address
                                                    + " did not finish within " + timeout);
                }
                String output = new String(tool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (tool.exitValue() != 0) {
                    throw new IllegalStateException("nodetool " + String.join(" ", args) + " on " + address
                                                    + " failed with " + tool.exitValue() + ":\n" + output);
                }
                return output;
            } finally {
                RUNNING.remove(tool);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Bytes of SSTables the node holds for {@code keyspace}. */
    public long dataBytes(String keyspace) {
        Path data = directory.resolve("data").resolve(keyspace);
        if (!Files.isDirectory(data)) {
            return 0;
        }
        // A compaction may delete files and directories while this walks them: those are skipped, not taken for an
        // empty keyspace (Files.walk gave up on the whole walk, and one CI run read 0 bytes on a node holding 107 MB).
        long[] bytes = {0};
        try {
            Files.walkFileTree(data, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    if (attributes.isRegularFile()) {
                        bytes[0] += attributes.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE; // compacted away while we looked
                }

                @Override
                public FileVisitResult postVisitDirectory(Path visited, IOException e) {
                    return FileVisitResult.CONTINUE; // a directory whose listing failed: as above
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the size of " + data, e);
        }
        return bytes[0];
    }

    /** Deletes the node's data (it must be stopped). */
    void deleteData() {
        if (isRunning()) {
            throw new IllegalStateException("Node " + address + " is running");
        }
        for (String sub : List.of("data", "commitlog", "saved_caches", "hints", "cdc_raw")) {
            Path path = directory.resolve(sub);
            if (!Files.exists(path)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(path)) {
                files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private String yaml() {
        return String.join("\n",
                "cluster_name: " + clusterName,
                "num_tokens: 16",
                "allocate_tokens_for_local_replication_factor: 3",
                "partitioner: org.apache.cassandra.dht.Murmur3Partitioner",
                "data_file_directories: [" + directory.resolve("data") + "]",
                "commitlog_directory: " + directory.resolve("commitlog"),
                "saved_caches_directory: " + directory.resolve("saved_caches"),
                "hints_directory: " + directory.resolve("hints"),
                "cdc_raw_directory: " + directory.resolve("cdc_raw"),
                commitLogSync(),
                "commitlog_segment_size: 8MiB",
                "seed_provider:",
                "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
                "    parameters:",
                "      - seeds: \"" + seeds + "\"",
                "listen_address: " + address,
                "rpc_address: " + address,
                "storage_port: " + storagePort,
                "native_transport_port: " + nativePort,
                "endpoint_snitch: SimpleSnitch",
                "auto_snapshot: false",
                "concurrent_reads: 4",
                "concurrent_writes: 4",
                "concurrent_counter_writes: 2",
                "concurrent_materialized_view_writes: 2",
                "concurrent_compactors: 1",
                "memtable_heap_space: 64MiB",
                "memtable_offheap_space: 64MiB",
                "key_cache_size: 8MiB",
                "counter_cache_size: 0MiB",
                "file_cache_size: 32MiB",
                "prepared_statements_cache_size: 4MiB",
                "native_transport_max_threads: 32",
                "stream_throughput_outbound: 0MiB/s",
                "entire_sstable_stream_throughput_outbound: 0MiB/s",
                "paxos_variant: " + paxosVariant,
                "");
    }

    /**
     * The commit log mode of every harness node: system property {@value #COMMIT_LOG_SYNC_PROPERTY}, {@code batch} by
     * default (each write fsynced before the node acknowledges it; concurrent writes share an fsync), else
     * {@code group} (fsynced in groups every 10 ms) or {@code periodic} (Cassandra's own default: fsynced every 10 s,
     * acknowledged before).
     */
    static String commitLogSync() {
        String mode = System.getProperty(COMMIT_LOG_SYNC_PROPERTY, "batch");
        return switch (mode) {
            case "batch" -> "commitlog_sync: batch";
            case "group" -> "commitlog_sync: group\ncommitlog_sync_group_window: 10ms";
            case "periodic" -> "commitlog_sync: periodic\ncommitlog_sync_period: 10000ms";
            default -> throw new IllegalArgumentException(COMMIT_LOG_SYNC_PROPERTY + " must be batch, group or "
                                                          + "periodic, but was '" + mode + "'");
        };
    }

    private String logback() {
        return "<configuration>\n"
               + "  <appender name=\"FILE\" class=\"ch.qos.logback.core.FileAppender\">\n"
               + "    <file>" + directory.resolve("system.log") + "</file>\n"
               + "    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{30} - %msg%n</pattern></encoder>\n"
               + "  </appender>\n"
               + "  <root level=\"INFO\"><appender-ref ref=\"FILE\"/></root>\n"
               + "</configuration>\n";
    }

}
