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

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The storage engines this server provides, one factory per {@code <engine>}: the only place that names them. The
 * /document/v1 handler (container-core) sees just the {@link ContentBackendFactory} seam.
 */
final class Engines {

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
                options(cluster, () -> EmbeddedOptions.builder(dataDirectory(dataRoot, cluster, application), types)
                                                      .engineOptions(cluster.engineOptions())
                                                      .build()));
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
