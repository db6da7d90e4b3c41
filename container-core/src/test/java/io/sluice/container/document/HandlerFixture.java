package io.sluice.container.document;

import io.sluice.config.DocumentApiConfig;
import io.sluice.container.JsonErrorHandler;
import io.sluice.container.ManualClock;
import io.sluice.document.DocumentTypes;
import io.sluice.content.ContentBackend;
import io.sluice.content.memory.InMemoryContentBackend;
import io.sluice.document.schema.SchemaParser;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** A {@link DocumentV1ApiHandler} on an in-memory connector, with a music schema and a manual clock and scheduler. */
final class HandlerFixture implements AutoCloseable {

    static final String SCHEMA = "schema music {\n"
                                 + "  document music {\n"
                                 + "    field artist type string { indexing: summary }\n"
                                 + "    field title type string { indexing: summary }\n"
                                 + "    field year type int { indexing: summary }\n"
                                 + "    field embedding type tensor<float>(x[3]) { indexing: attribute }\n"
                                 + "    field by type reference<artist> { indexing: attribute }\n"
                                 + "    field audience type predicate {\n"
                                 + "      indexing: attribute\n"
                                 + "      index { arity: 2 }\n"
                                 + "    }\n"
                                 + "  }\n"
                                 + "  import field by.name as artist_name {}\n"
                                 + "}\n";
    static final String GLOBAL_SCHEMA = "schema artist {\n  document artist {\n    field name type string { indexing: summary }\n  }\n}\n";

    static DocumentTypes types() {
        return SchemaParser.parse(Map.of("music.sd", SCHEMA, "artist.sd", GLOBAL_SCHEMA));
    }

    final ManualClock clock;
    final ManualScheduler scheduler = new ManualScheduler();
    final ContentBackend backend;
    final DocumentV1ApiHandler handler;
    private final Server server = new Server();
    private final LocalConnector connector = new LocalConnector(server);

    private HandlerFixture(ManualClock clock, ContentBackend backend, DocumentApiConfig config,
                           Function<DocumentApiContext, VisitRoutes> visitRoutes) throws Exception {
        this(clock, backend, config, visitRoutes, UnaryOperator.identity());
    }

    private HandlerFixture(ManualClock clock, ContentBackend backend, DocumentApiConfig config,
                           Function<DocumentApiContext, VisitRoutes> visitRoutes,
                           UnaryOperator<DocumentV1ApiHandler.Builder> options) throws Exception {
        this.clock = clock;
        this.backend = backend;
        ContentClusters clusters = ContentClusters.of(types(), List.of(
                new ContentClusters.Cluster("music", backend, List.of("music", "artist"), List.of("artist"))));
        DocumentV1ApiHandler.Builder builder = DocumentV1ApiHandler.builder(clusters, config).clock(clock).scheduler(scheduler);
        if (visitRoutes != null)
            builder.visitRoutes(visitRoutes);
        this.handler = options.apply(builder).build();
        connector.getConnectionFactory(org.eclipse.jetty.server.HttpConnectionFactory.class).getHttpConfiguration()
                 .setUriCompliance(org.eclipse.jetty.http.UriCompliance.LEGACY);
        server.addConnector(connector);
        server.setErrorHandler(new JsonErrorHandler());
        server.setHandler(handler);
        server.start();
    }

    static ManualClock newClock() {
        return new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    }

    /** The handler over an in-memory backend using the fixture's clock, with default configuration. */
    static HandlerFixture create() throws Exception {
        return create(DocumentApiConfig.defaults());
    }

    static HandlerFixture create(DocumentApiConfig config) throws Exception {
        ManualClock clock = newClock();
        return new HandlerFixture(clock, InMemoryContentBackend.builder().clock(clock).build(), config, null);
    }

    static HandlerFixture create(ContentBackend backend, DocumentApiConfig config) throws Exception {
        return new HandlerFixture(newClock(), backend, config, null);
    }

    /** The handler over an in-memory backend, default configuration, with {@code options} applied to its builder. */
    static HandlerFixture create(UnaryOperator<DocumentV1ApiHandler.Builder> options) throws Exception {
        ManualClock clock = newClock();
        return new HandlerFixture(clock, InMemoryContentBackend.builder().clock(clock).build(), DocumentApiConfig.defaults(), null, options);
    }

    /** {@link #withVisitRoutes(Function)} with {@code options} applied to the handler's builder. */
    static HandlerFixture withVisitRoutes(Function<DocumentApiContext, VisitRoutes> visitRoutes,
                                          UnaryOperator<DocumentV1ApiHandler.Builder> options) throws Exception {
        ManualClock clock = newClock();
        return new HandlerFixture(clock, InMemoryContentBackend.builder().clock(clock).build(), DocumentApiConfig.defaults(), visitRoutes, options);
    }

    static HandlerFixture withVisitRoutes(Function<DocumentApiContext, VisitRoutes> visitRoutes) throws Exception {
        ManualClock clock = newClock();
        return new HandlerFixture(clock, InMemoryContentBackend.builder().clock(clock).build(), DocumentApiConfig.defaults(), visitRoutes);
    }

    /** Sends a request, waits for the whole response, and parses it. */
    HttpTester.Response send(String method, String pathAndQuery, String body, String... headers) throws Exception {
        return sendBytes(method, pathAndQuery, body == null ? null : body.getBytes(StandardCharsets.UTF_8), headers);
    }

    HttpTester.Response send(String method, String pathAndQuery) throws Exception {
        return send(method, pathAndQuery, null);
    }

    /** Sends bytes as the body, with the given extra headers ({@code "Name: value"}). */
    HttpTester.Response sendBytes(String method, String pathAndQuery, byte[] body, String... headers) throws Exception {
        return HttpTester.parseResponse(connector.getResponse(java.nio.ByteBuffer.wrap(raw(method, pathAndQuery, body, headers))));
    }

    /** Starts a request and returns the endpoint to read its response from later. */
    LocalConnector.LocalEndPoint start(String method, String pathAndQuery, String body) {
        return connector.executeRequest(new String(raw(method, pathAndQuery, body == null ? null : body.getBytes(StandardCharsets.UTF_8)),
                                                   StandardCharsets.ISO_8859_1));
    }

    LocalConnector connector() {
        return connector;
    }

    static byte[] raw(String method, String pathAndQuery, byte[] body, String... headers) {
        StringBuilder head = new StringBuilder(method + " " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n");
        for (String header : headers)
            head.append(header).append("\r\n");
        if (body != null)
            head.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        if (body == null)
            return headBytes;
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        return all;
    }

    @Override
    public void close() {
        try {
            server.stop();
        }
        catch (Exception e) {
            throw new IllegalStateException("Stopping the server failed", e);
        }
    }

}
