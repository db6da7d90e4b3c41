package io.sluice.http;

import io.sluice.config.ApplicationPackage;
import io.sluice.config.ContainerCluster;
import io.sluice.config.ContentCluster;
import io.sluice.config.DocumentApiConfig;
import io.sluice.config.ConfigException;
import io.sluice.container.BindingPattern;
import io.sluice.container.HandlerRegistration;
import io.sluice.container.faults.FaultInjectionHandler;
import io.sluice.container.faults.Faults;
import io.sluice.container.faults.FaultsHandler;
import org.eclipse.jetty.server.Handler;
import io.sluice.container.StatusHandlers;
import io.sluice.container.document.ContentBackendFactory;
import io.sluice.container.document.ContentClusters;
import io.sluice.container.document.DocumentApiNotConfiguredHandler;
import io.sluice.container.document.DocumentV1ApiHandler;

import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

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
        return mount(builder, application, cluster, engines, Optional.empty());
    }

    /**
     * As {@link #mount(SluiceServer.Builder, ApplicationPackage, ContainerCluster, Map)}; with {@code faults}, the
     * handler is wrapped to inject them ({@link FaultInjectionHandler}), and {@value FaultsHandler#PATH} and their
     * metrics are mounted too.
     */
    static Optional<DocumentV1ApiHandler> mount(SluiceServer.Builder builder, ApplicationPackage application,
                                                ContainerCluster cluster,
                                                Map<ContentCluster.Engine, ContentBackendFactory> engines,
                                                Optional<Faults> faults) {
        faults.ifPresent(f -> {
            builder.handler(HandlerRegistration.of(StatusHandlers.BUNDLE, new FaultsHandler(f), "http://*" + FaultsHandler.PATH));
            builder.metricsSource(f);
        });
        Optional<DocumentApiConfig> config = cluster.documentApi();
        if (config.isEmpty()) {
            if (faults.isPresent())
                throw new ConfigException("--faults: <container id='" + cluster.id() + "'> has no <document-api> to inject faults into");
            builder.handler(HandlerRegistration.of(StatusHandlers.BUNDLE, new DocumentApiNotConfiguredHandler(), BINDINGS));
            return Optional.empty();
        }
        ContentClusters clusters = ContentClusters.load(application, engines);
        DocumentV1ApiHandler handler = DocumentV1ApiHandler.builder(clusters, config.get()).build();
        Handler mounted = faults.<Handler>map(f -> new FaultInjectionHandler(f, FaultInjectionHandler.Delayer.jetty(), handler))
                                .orElse(handler);
        builder.handler(new HandlerRegistration(handler.getClass().getName(), handler.getClass().getName(),
                                                StatusHandlers.BUNDLE,
                                                Stream.of(BINDINGS).map(BindingPattern::parse).toList(), mounted));
        builder.metricsSource(handler.metrics());
        builder.healthWatch(clusters::storageFailure);
        builder.healthNote(handler::condition);
        return Optional.of(handler);
    }

}
