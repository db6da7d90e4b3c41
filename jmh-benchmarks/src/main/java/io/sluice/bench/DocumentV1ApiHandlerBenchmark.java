package io.sluice.bench;

import io.sluice.config.DocumentApiConfig;
import io.sluice.container.document.ContentClusters;
import io.sluice.container.document.DocumentV1ApiHandler;
import io.sluice.content.memory.InMemoryContentBackend;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@code /document/v1} handler driven in memory, over an in-memory backend: a 1 KiB put (POST), a get of a
 * stored 1 KiB document, and a paged visit returning 1 000 documents in one response. Requests go through Jetty's
 * {@link LocalConnector} on kept-alive connections, so HTTP/1.1 parsing and generation are included (no sockets, no
 * TLS); {@link #reference} answers a fixed small JSON body through the same path: it is the cost of Jetty and the
 * harness, to read every other score against. Puts, gets and the reference keep {@link #IN_FLIGHT} requests in flight
 * on as many connections (a batch per invocation), so thread hand-offs overlap as under real load; visits run one at a
 * time. Scores are requests per second.
 *
 * <pre>java -jar jmh-benchmarks/target/benchmarks.jar DocumentV1ApiHandlerBenchmark</pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class DocumentV1ApiHandlerBenchmark {

    static final int DOCUMENT_BYTES = 1024;
    static final int STORED = 1000;
    static final int PUT_IDS = 4096;
    static final int IN_FLIGHT = 32;

    /** A server with one handler on a local connector, and {@link #IN_FLIGHT} kept-alive connections to it. */
    public abstract static class Local {

        private Server server;
        private final LocalConnector.LocalEndPoint[] connections = new LocalConnector.LocalEndPoint[IN_FLIGHT];

        abstract Handler handler();

        @Setup(Level.Trial)
        public void start() throws Exception {
            server = new Server();
            LocalConnector connector = new LocalConnector(server);
            // As Sluice's connectors: ids with encoded slashes must reach the handler.
            connector.getConnectionFactory(HttpConnectionFactory.class).getHttpConfiguration().setUriCompliance(UriCompliance.LEGACY);
            server.addConnector(connector);
            server.setHandler(handler());
            server.start();
            for (int i = 0; i < IN_FLIGHT; i++) connections[i] = connector.connect();
            prepare();
        }

        void prepare() throws Exception {
        }

        @TearDown(Level.Trial)
        public void stop() throws Exception {
            server.stop();
        }

        /** Sends one request and returns its whole response; throws unless the status is 200. */
        ByteBuffer send(byte[] request) throws Exception {
            connections[0].addInputAndExecute(ByteBuffer.wrap(request));
            return response(connections[0]);
        }

        /** Sends one request on each connection, then waits for every response; throws unless all are 200. */
        void sendAll(RequestSource requests, Blackhole blackhole) throws Exception {
            for (LocalConnector.LocalEndPoint connection : connections) connection.addInputAndExecute(ByteBuffer.wrap(requests.next()));
            for (LocalConnector.LocalEndPoint connection : connections) blackhole.consume(response(connection));
        }

        private static ByteBuffer response(LocalConnector.LocalEndPoint connection) throws Exception {
            ByteBuffer response = connection.waitForResponse(false, 30, TimeUnit.SECONDS);
            if (response == null) throw new IllegalStateException("No response within 30 s");
            int status = (response.get(9) - '0') * 100 + (response.get(10) - '0') * 10 + (response.get(11) - '0');
            if (status != 200) {
                String text = StandardCharsets.UTF_8.decode(response.duplicate()).toString();
                throw new IllegalStateException("Expected status 200, got: " + text.substring(0, Math.min(400, text.length())));
            }
            return response;
        }

    }

    /** The handler over an in-memory content cluster "bench" holding the article type. */
    public abstract static class Documents extends Local {

        @Override
        Handler handler() {
            ContentClusters clusters = ContentClusters.of(Corpus.TYPES, List.of(
                    new ContentClusters.Cluster("bench", InMemoryContentBackend.builder().build(), List.of("article"), List.of())));
            return DocumentV1ApiHandler.builder(clusters, DocumentApiConfig.defaults()).build();
        }

    }

    /** An empty store; puts cycle over {@link #PUT_IDS} ids, so later ones replace earlier documents. */
    @State(Scope.Thread)
    public static class Empty extends Documents {

        private byte[][] puts;
        private int next;

        @Override
        void prepare() {
            puts = new byte[PUT_IDS][];
            for (int i = 0; i < PUT_IDS; i++) puts[i] = request("POST", "/document/v1/bench/article/docid/p-" + i, Corpus.putBody(i, DOCUMENT_BYTES));
        }

        byte[] nextPut() {
            next = (next + 1) % PUT_IDS;
            return puts[next];
        }

    }

    /** {@link #STORED} stored documents, the only ones in the store. */
    @State(Scope.Thread)
    public static class Stored extends Documents {

        private byte[][] gets;
        private int next;

        @Override
        void prepare() throws Exception {
            gets = new byte[STORED][];
            for (int i = 0; i < STORED; i++) {
                send(request("POST", "/document/v1/bench/article/docid/" + i, Corpus.putBody(i, DOCUMENT_BYTES)));
                gets[i] = request("GET", "/document/v1/bench/article/docid/" + i, null);
            }
        }

        byte[] nextGet() {
            next = (next + 1) % STORED;
            return gets[next];
        }

    }

    /** As {@link Stored}, and a visit request that returns all of them in one page (checked once). */
    @State(Scope.Thread)
    public static class Visited extends Stored {

        final byte[] visit = request("GET", "/document/v1/?cluster=bench&wantedDocumentCount=" + STORED, null);

        @Override
        void prepare() throws Exception {
            super.prepare();
            String page = StandardCharsets.UTF_8.decode(send(visit)).toString();
            if (!page.contains("\"documentCount\":" + STORED) || page.contains("\"continuation\""))
                throw new IllegalStateException("A visit page should hold all " + STORED + " documents, but was: "
                                                + page.substring(0, Math.min(500, page.length())));
        }

    }

    /** A handler that answers every request with a fixed small JSON body, as fast as Jetty's core API allows. */
    @State(Scope.Thread)
    public static class Fixed extends Local {

        static final byte[] BODY = "{\"pathId\":\"/document/v1/\",\"id\":\"id:bench:article::0\"}".getBytes(StandardCharsets.UTF_8);
        final byte[] request = request("GET", "/document/v1/bench/article/docid/0", null);

        @Override
        Handler handler() {
            return new Handler.Abstract.NonBlocking() {
                @Override
                public boolean handle(Request request, Response response, Callback callback) {
                    response.setStatus(200);
                    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json;charset=utf-8");
                    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, BODY.length);
                    response.write(true, ByteBuffer.wrap(BODY), callback);
                    return true;
                }
            };
        }

    }

    interface RequestSource {
        byte[] next();
    }

    static byte[] request(String method, String path, byte[] body) {
        String head = method + " " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                      + (body == null ? "" : "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n")
                      + "\r\n";
        byte[] headBytes = head.getBytes(StandardCharsets.ISO_8859_1);
        if (body == null) return headBytes;
        byte[] all = new byte[headBytes.length + body.length];
        System.arraycopy(headBytes, 0, all, 0, headBytes.length);
        System.arraycopy(body, 0, all, headBytes.length, body.length);
        return all;
    }

    /** POST of a 1 KiB document. */
    @Benchmark
    @OperationsPerInvocation(IN_FLIGHT)
    public void put(Empty state, Blackhole blackhole) throws Exception {
        state.sendAll(state::nextPut, blackhole);
    }

    /** GET of a stored 1 KiB document. */
    @Benchmark
    @OperationsPerInvocation(IN_FLIGHT)
    public void get(Stored state, Blackhole blackhole) throws Exception {
        state.sendAll(state::nextGet, blackhole);
    }

    /** A paged visit returning all 1 000 stored documents (about 1.1 MB) in one response; score × 1 000 = docs/s. */
    @Benchmark
    public ByteBuffer visitPage(Visited state) throws Exception {
        return state.send(state.visit);
    }

    /** The reference: requests as {@link #get}'s, to a handler that returns a fixed small body. */
    @Benchmark
    @OperationsPerInvocation(IN_FLIGHT)
    public void reference(Fixed state, Blackhole blackhole) throws Exception {
        state.sendAll(() -> state.request, blackhole);
    }

}
