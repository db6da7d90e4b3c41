package io.sluice.http;

import io.sluice.config.AccessLogConfig;
import io.sluice.config.DocumentApiConfig;
import io.sluice.container.HandlerRegistration;
import io.sluice.container.document.ContentClusters;
import io.sluice.container.document.DocumentV1ApiHandler;
import io.sluice.document.DocumentTypes;
import io.sluice.content.memory.InMemoryContentBackend;
import io.sluice.document.schema.SchemaParser;

import java.util.List;

/** Real-socket servers with {@code /document/v1} over an in-memory backend, for protocol and compatibility tests. */
final class DocumentServers {

    static final String SCHEMA = "schema music {\n"
                                 + "  document music {\n"
                                 + "    field artist type string { indexing: summary }\n"
                                 + "    field title type string { indexing: summary }\n"
                                 + "    field year type int { indexing: summary }\n"
                                 + "  }\n"
                                 + "}\n";

    private DocumentServers() { }

    static DocumentTypes types() {
        return SchemaParser.parse("music.sd", SCHEMA);
    }

    /** A started fixture (cleartext and TLS servers) mounting {@code handler}. */
    static ServerFixture start(TestPki pki, DocumentV1ApiHandler handler) {
        return ServerFixture.start(pki, ServerFixture.cluster(pki, List.of(), AccessLogConfig.disabled()),
                                   HandlerRegistration.of("test", handler, DocumentV1ApiHandler.BINDING, "http://*/document/v1"));
    }

    /** A handler over one in-memory cluster {@code music} storing type {@code music}. */
    static DocumentV1ApiHandler memoryHandler(DocumentApiConfig config) {
        var clusters = ContentClusters.of(types(), List.of(new ContentClusters.Cluster("music", InMemoryContentBackend.builder().build(),
                                                                                       List.of("music"), List.of())));
        return DocumentV1ApiHandler.builder(clusters, config).build();
    }

}
