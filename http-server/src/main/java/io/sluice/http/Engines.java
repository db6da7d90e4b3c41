package io.sluice.http;

import io.sluice.config.ApplicationPackage;
import io.sluice.config.ConfigException;
import io.sluice.config.ContentCluster;
import io.sluice.container.document.ContentBackendFactory;
import io.sluice.content.ContentBackend;
import io.sluice.content.cassandra.CassandraContentBackend;
import io.sluice.content.cassandra.CassandraOptions;
import io.sluice.content.embedded.EmbeddedContentBackend;
import io.sluice.content.embedded.EmbeddedOptions;
import io.sluice.content.memory.InMemoryContentBackend;
import io.sluice.document.DocumentTypes;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The storage engines this server provides, one factory per {@code <engine>}: the only place that names them. The
 * /document/v1 handler (container-core) sees just the {@link ContentBackendFactory} seam.
 */
final class Engines {

    /** The share of memory the embedded stores' block caches take together unless configured. */
    static final int BLOCK_CACHE_MEMORY_PERCENT = 5;
    private static final long MIN_BLOCK_CACHE_BYTES = 64L << 20;

    private Engines() { }

    /**
     * Every engine of a server launched with {@code options}: the embedded store (which honours {@code --data}), the
     * in-memory one, and Cassandra (from the cluster's {@code <cassandra .../>} options).
     */
    static Map<ContentCluster.Engine, ContentBackendFactory> all(LaunchOptions options) {
        return Map.of(ContentCluster.Engine.MEMORY, memory(),
                      ContentCluster.Engine.EMBEDDED, embedded(options.dataDirectory()),
                      ContentCluster.Engine.CASSANDRA, cassandra());
    }

    /**
     * The engines of an ephemeral server ({@code --ephemeral}): every {@code <engine>} is the in-memory one, so nothing
     * is written to disk or sent elsewhere, and nothing survives a restart. A cluster's engine options are not read.
     */
    static Map<ContentCluster.Engine, ContentBackendFactory> ephemeral() {
        return Map.of(ContentCluster.Engine.MEMORY, memory(),
                      ContentCluster.Engine.EMBEDDED, memory(),
                      ContentCluster.Engine.CASSANDRA, memory());
    }

    /** The in-memory engine, for {@code <memory/>} clusters: nothing survives a restart. */
    static ContentBackendFactory memory() {
        return (cluster, application, types) -> InMemoryContentBackend.builder().build();
    }

    /**
     * The embedded RocksDB store, the default engine. Each cluster keeps its files in its own directory:
     * {@code <dataRoot>/<cluster id>} when the process was given a data root ({@code --data}), else the cluster's
     * configured data directory, else {@code data/<cluster id>} inside the application package.
     */
    static ContentBackendFactory embedded(Optional<Path> dataRoot) {
        return (cluster, application, types) -> EmbeddedContentBackend.open(
                options(cluster, () -> {
                    int stores = embeddedClusters(application);
                    long blockCache = defaultBlockCacheBytes(memoryBytes(), stores);
                    long documentCache = EmbeddedOptions.defaultDocumentCacheBytes(Runtime.getRuntime().maxMemory(),
                                                                                   stores);
                    return EmbeddedOptions.builder(dataDirectory(dataRoot, cluster, application), types)
                                          .blockCacheBytes(blockCache)
                                          .documentCacheBytes(documentCache)
                                          .engineOptions(cluster.engineOptions()) // the cluster's sizes win
                                          .build();
                }));
    }

    /**
     * The block cache of each of {@code stores} embedded stores when their {@code block-cache} is not configured:
     * together {@value #BLOCK_CACHE_MEMORY_PERCENT}% of {@code memoryBytes}, as Vespa's content nodes cache their
     * document store by default, and at least 64 MiB each. A store larger than its cache reads most documents from
     * files and decompresses a block for each: GETs of 50,000 random ids of a 1,000,000-document store (~1.2 GB of
     * blocks) took 26.9 us of server CPU each with 64 MiB, 18.8 with 1.2 GiB (bench/store.sh, 2026-11-28).
     */
    static long defaultBlockCacheBytes(long memoryBytes, int stores) {
        return Math.max(MIN_BLOCK_CACHE_BYTES, memoryBytes / 100 * BLOCK_CACHE_MEMORY_PERCENT / Math.max(1, stores));
    }

    /**
     * The machine's memory, or the container's limit when it runs in one; 0 (so each cache gets the minimum) on a JVM
     * that does not tell.
     */
    private static long memoryBytes() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
               ? os.getTotalMemorySize() : 0;
    }

    /** How many content clusters of {@code application} the embedded engine stores. */
    static int embeddedClusters(ApplicationPackage application) {
        return (int) application.services().contents().stream()
                                .filter(cluster -> cluster.engine() == ContentCluster.Engine.EMBEDDED)
                                .count();
    }

    /** Engine options as the engine reads them; a bad one stops start-up with a message naming the cluster. */
    private static <T> T options(ContentCluster cluster, Supplier<T> reader) {
        try {
            return reader.get();
        }
        catch (IllegalArgumentException e) {
            throw new ConfigException("<content id='" + cluster.id() + "'> <engine>: " + e.getMessage(), e);
        }
    }

    /** Cassandra, configured by the cluster's {@code <cassandra .../>} element; blocks while it connects. */
    static ContentBackendFactory cassandra() {
        return Engines::openCassandra;
    }

    private static ContentBackend openCassandra(ContentCluster cluster, ApplicationPackage application,
                                                DocumentTypes types) {
        CassandraOptions options = options(cluster, () -> CassandraOptions.fromEngineOptions(
                cluster.id(), cluster.minRedundancy(), cluster.engineOptions()));
        return CassandraContentBackend.open(options, types);
    }

    private static Path dataDirectory(Optional<Path> dataRoot, ContentCluster cluster, ApplicationPackage application) {
        return dataRoot.map(root -> root.resolve(cluster.id()))
                       .or(cluster::dataDirectory)
                       .orElseGet(() -> application.directory().resolve("data").resolve(cluster.id()));
    }

}
