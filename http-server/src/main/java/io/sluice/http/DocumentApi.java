package io.sluice.http;

import io.sluice.config.ApplicationPackage;
import io.sluice.config.ContainerCluster;
import io.sluice.config.ContentCluster;
import io.sluice.config.DocumentApiConfig;
import io.sluice.container.HandlerRegistration;
import io.sluice.container.StatusHandlers;
import io.sluice.container.document.ContentBackendFactory;
import io.sluice.container.document.ContentClusters;
import io.sluice.container.document.DocumentApiNotConfiguredHandler;
import io.sluice.container.document.DocumentV1ApiHandler;

import java.util.Map;
import java.util.Optional;

/** Mounts {@code /document/v1} on a server: the real handler with {@code <document-api>}, else Vespa's 404 stand-in. */
final class DocumentApi {

    private static final String[] BINDINGS = { DocumentV1ApiHandler.BINDING, "http://*/document/v1" };

    private DocumentApi() { }

    /**
     * Adds the {@code /document/v1} handler for {@code cluster} to {@code builder}. With {@code <document-api>}, creates
     * the content backends of {@code application} with {@code engines}; the handler closes them when the server stops,
     * after the graceful drain.
     *
     * @return the handler, if the document API is configured
     * @throws io.sluice.config.ConfigException if schemas are invalid or an engine has no factory
     */
    static Optional<DocumentV1ApiHandler> mount(SluiceServer.Builder builder, ApplicationPackage application,
                                                ContainerCluster cluster,
                                                Map<ContentCluster.Engine, ContentBackendFactory> engines) {
        Optional<DocumentApiConfig> config = cluster.documentApi();
        if (config.isEmpty()) {
            builder.handler(HandlerRegistration.of(StatusHandlers.BUNDLE, new DocumentApiNotConfiguredHandler(), BINDINGS));
            return Optional.empty();
        }
        ContentClusters clusters = ContentClusters.load(application, engines);
        DocumentV1ApiHandler handler = DocumentV1ApiHandler.builder(clusters, config.get()).build();
        builder.handler(HandlerRegistration.of(StatusHandlers.BUNDLE, handler, BINDINGS));
        builder.metricsSource(handler.metrics());
        builder.healthWatch(clusters::storageFailure);
        builder.healthNote(handler::condition);
        return Optional.of(handler);
    }

}
