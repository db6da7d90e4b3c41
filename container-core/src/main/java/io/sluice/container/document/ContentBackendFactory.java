package io.sluice.container.document;

import io.sluice.config.ApplicationPackage;
import io.sluice.config.ContentCluster;
import io.sluice.document.DocumentTypes;
import io.sluice.content.ContentBackend;

/**
 * Creates the content backend of one {@code <content>} cluster: the seam between the handler and the storage engines,
 * which it never names. One factory per {@link ContentCluster.Engine}; the process (http-server) passes the map of those
 * it provides to {@link ContentClusters#load}.
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

}
