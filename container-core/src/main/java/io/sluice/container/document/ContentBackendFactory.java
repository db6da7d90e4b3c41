package io.sluice.container.document;

import io.sluice.config.ApplicationPackage;
import io.sluice.config.ContentCluster;
import io.sluice.document.DocumentTypes;
import io.sluice.document.content.ContentBackend;
import io.sluice.document.content.embedded.EmbeddedContentBackend;
import io.sluice.document.content.embedded.EmbeddedOptions;
import io.sluice.document.content.memory.InMemoryContentBackend;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Creates the content backend of one {@code <content>} cluster. One factory per {@link ContentCluster.Engine}; the
 * process passes the map of those it supports to {@link ContentClusters#load}.
 */
@FunctionalInterface
public interface ContentBackendFactory {

    /**
     * Creates and opens the backend for {@code cluster}.
     *
     * @param cluster     the cluster's configuration, including engine options and data directory
     * @param application the application package (e.g. to resolve a default data directory beside it)
     * @param types       every document type of the application
     * @throws RuntimeException with a message naming the cluster if the backend cannot be opened
     */
    ContentBackend create(ContentCluster cluster, ApplicationPackage application, DocumentTypes types);

    /** The in-memory backend, for {@code <memory/>} clusters: nothing survives a restart. */
    static ContentBackendFactory memory() {
        return (cluster, application, types) -> InMemoryContentBackend.builder().build();
    }

    /**
     * The embedded RocksDB store, the default engine. Each cluster keeps its files in its own directory:
     * {@code <dataRoot>/<cluster id>} when the process was given a data root ({@code --data}), else the cluster's
     * configured data directory, else {@code data/<cluster id>} inside the application package.
     */
    static ContentBackendFactory embedded(Optional<Path> dataRoot) {
        return (cluster, application, types) -> {
            Path directory = dataRoot.map(root -> root.resolve(cluster.id()))
                                     .or(cluster::dataDirectory)
                                     .orElseGet(() -> application.directory().resolve("data").resolve(cluster.id()));
            return EmbeddedContentBackend.open(EmbeddedOptions.builder(directory, types)
                                                              .engineOptions(cluster.engineOptions())
                                                              .build());
        };
    }

}
