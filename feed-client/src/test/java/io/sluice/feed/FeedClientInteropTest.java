package io.sluice.feed;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FeedClientInteropTest {

    private static final RetryStrategy FAST_RETRIES = new RetryStrategy() {
        @Override public int retries() { return 20; }
        @Override public Duration initialBackoff() { return Duration.ofMillis(1); }
        @Override public Duration maxBackoff() { return Duration.ofMillis(20); }
    };

    private static FeedClient client(StubServer server) {
        return FeedClientBuilder.create(server.uri()).setConnectionsPerEndpoint(2).setRetryStrategy(FAST_RETRIES).build();
    }

    @Test
    void put_overH2c_sendsPathQueryAndBody() throws Exception {
        List<StubServer.Received> received = new ArrayList<>();
        try (StubServer server = new StubServer(r -> { received.add(r); return StubServer.Reply.json(200, "{\"message\":\"ok\"}"); });
             FeedClient client = client(server)) {
            Result result = client.put(DocumentId.of("id:ns:music::a b"), "{\"fields\":{\"x\":1}}",
                                       OperationParameters.empty().testAndSetCondition("music.x==0").createIfNonExistent(true)).get();
            assertEquals(Result.Type.SUCCESS, result.type());
            assertEquals("ok", result.resultMessage().get());
        }
        StubServer.Received request = received.get(received.size() - 1);
        assertEquals("HTTP/2.0", request.protocol());
        assertEquals("POST", request.method());
        assertEquals("/document/v1/ns/music/docid/a%20b", request.path());
        assertTrue(request.query().matches("create=true&condition=music.x%3D%3D0&timeout=\\d+ms"), request.query());
        assertEquals("{\"fields\":{\"x\":1}}", request.body());
    }

    @Test
    void put_serverNeverAnswers_failsSoonAfterItsTimeout() {
        try (StubServer server = new StubServer(r -> r.path().contains("handshake") ? StubServer.Reply.json(200, "{}") : StubServer.Reply.HANG);
             FeedClient client = client(server)) {
            CompletableFuture<Result> result = client.put(DocumentId.of("id:ns:music::a"), "{\"fields\":{}}",
                                                          OperationParameters.empty().timeout(Duration.ofMillis(200)));
            ExecutionException e = assertThrows(ExecutionException.class, () -> result.get(30, TimeUnit.SECONDS));
            assertInstanceOf(FeedException.class, e.getCause());
            assertTrue(e.getCause().getMessage().matches(".*No response within 1\\d{3} ms .*"), e.getCause().getMessage());
        }
    }

    @Test
    void reconnect_sendsLaterRequestsOverANewConnection() throws Exception {
        List<StubServer.Received> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (StubServer server = new StubServer(r -> { received.add(r); return StubServer.Reply.json(200, "{}"); });
             Http2Cluster cluster = new Http2Cluster(FeedClientBuilder.create(server.uri()).setConnectionsPerEndpoint(1))) {
            send(cluster);
            send(cluster);
            cluster.reconnect();
            send(cluster);
        }
        assertEquals(received.get(0).remotePort(), received.get(1).remotePort());
        assertTrue(received.get(1).remotePort() != received.get(2).remotePort(), received.toString());
    }

    private static void send(Http2Cluster cluster) throws Exception {
        CompletableFuture<HttpResponse> response = new CompletableFuture<>();
        cluster.dispatch(new HttpRequest("POST", "/document/v1/ns/music/docid/a", "{}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                                         false, 2, System.nanoTime() + TimeUnit.SECONDS.toNanos(10)),
                         new Cluster.Callback() {
                             @Override public void completed(HttpResponse r) { response.complete(r); }
                             @Override public void failed(Throwable cause) { response.completeExceptionally(cause); }
                         });
        assertEquals(200, response.get(10, TimeUnit.SECONDS).code());
    }

    @Test
    void build_sendsHandshakeFirst() {
        List<StubServer.Received> received = new ArrayList<>();
        try (StubServer server = new StubServer(r -> { received.add(r); return StubServer.Reply.json(200, "{}"); })) {
            client(server).close();
            assertEquals(1, received.size());
            assertEquals("POST /document/v1/feeder/handshake/docid/dummy", received.get(0).method() + " " + received.get(0).path());
            assertTrue(received.get(0).query().matches("dryRun=true&timeout=\\d+ms"), received.get(0).query());
        }
    }

    @Test
    void build_withoutServer_failsHandshake() {
        StubServer server = new StubServer(r -> StubServer.Reply.json(200, "{}"));
        server.close();
        FeedException e = assertThrows(FeedException.class, () -> client(server));
        assertTrue(e.getMessage().startsWith("Failed handshake with server after "), e.getMessage());
    }

    @Test
    void bodyLargerThanFlowControlWindows_arrivesWhole() throws Exception {
        List<StubServer.Received> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        StringBuilder text = new StringBuilder();
        Random random = new Random(1);
        while (text.length() < 300_000) text.append(Integer.toHexString(random.nextInt()));
        String json = "{\"fields\":{\"text\":\"" + text + "\"}}";
        try (StubServer server = new StubServer(r -> { received.add(r); return StubServer.Reply.json(200, "{}"); });
             FeedClient client = FeedClientBuilder.create(server.uri()).setCompression(Compression.NONE).build()) {
            assertEquals(Result.Type.SUCCESS, client.put(DocumentId.of("id:ns:music::a"), json, OperationParameters.empty()).get().type());
        }
        assertEquals(json, received.get(1).body());
    }

    @Test
    void largeBody_withGzip_isGzipped() throws Exception {
        List<StubServer.Received> received = new ArrayList<>();
        String json = "{\"fields\":{\"text\":\"" + "y".repeat(2000) + "\"}}";
        try (StubServer server = new StubServer(r -> { received.add(r); return StubServer.Reply.json(200, "{}"); });
             FeedClient client = FeedClientBuilder.create(server.uri()).setCompression(Compression.GZIP).build()) {
            client.put(DocumentId.of("id:ns:music::a"), json, OperationParameters.empty()).get();
        }
        assertEquals("gzip", received.get(1).contentEncoding());
        assertEquals(json, received.get(1).body());
    }

    @Test
    void largeBody_withAutoToLoopback_isNotCompressed() throws Exception {
        List<StubServer.Received> received = new ArrayList<>();
        String json = "{\"fields\":{\"text\":\"" + "y".repeat(2000) + "\"}}";
        try (StubServer server = new StubServer(r -> { received.add(r); return StubServer.Reply.json(200, "{}"); });
             FeedClient client = client(server)) {
            client.put(DocumentId.of("id:ns:music::a"), json, OperationParameters.empty()).get();
        }
        assertEquals(null, received.get(1).contentEncoding());
        assertEquals(json, received.get(1).body());
    }

    @Test
    void autoCompression_gzipsUnlessEveryEndpointIsLoopback() {
        java.net.URI local = java.net.URI.create("http://127.0.0.1:8080/"), remote = java.net.URI.create("https://feed.example.com/");
        assertEquals(Compression.NONE, FeedClientBuilder.effectiveCompression(Compression.AUTO, List.of(local, java.net.URI.create("http://localhost/"))));
        assertEquals(Compression.AUTO, FeedClientBuilder.effectiveCompression(Compression.AUTO, List.of(local, remote)));
        assertEquals(Compression.GZIP, FeedClientBuilder.effectiveCompression(Compression.GZIP, List.of(local)));
    }

    @Test
    void status412_isConditionNotMet() throws Exception {
        try (StubServer server = new StubServer(r -> StubServer.Reply.json(412, "{\"message\":\"no\"}"));
             FeedClient client = client(server)) {
            Result result = client.remove(DocumentId.of("id:ns:music::a"), OperationParameters.empty()).get();
            assertEquals(Result.Type.CONDITION_NOT_MET, result.type());
        }
    }

    @Test
    void status400_failsWithStatusAndMessage() throws Exception {
        try (StubServer server = new StubServer(r -> StubServer.Reply.json(400, "{\"message\":\"bad field\"}"));
             FeedClient client = client(server)) {
            CompletableFuture<Result> result = client.update(DocumentId.of("id:ns:music::a"), "{\"fields\":{}}", OperationParameters.empty());
            ExecutionException e = assertThrows(ExecutionException.class, result::get);
            assertEquals("(id:ns:music::a) Status 400 executing 'PUT /document/v1/ns/music/docid/a': bad field", e.getCause().getMessage());
        }
    }

    @Test
    void status507_isResultException() throws Exception {
        try (StubServer server = new StubServer(r -> StubServer.Reply.json(507, "{\"message\":\"full\"}"));
             FeedClient client = client(server)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> client.put(DocumentId.of("id:ns:music::a"), "{\"fields\":{}}", OperationParameters.empty()).get());
            assertEquals(507, assertInstanceOf(ResultException.class, e.getCause()).status());
        }
    }

    @Test
    void nonJsonBody_isResultParseException() throws Exception {
        try (StubServer server = new StubServer(r -> new StubServer.Reply(200, "fine", "text/plain"));
             FeedClient client = client(server)) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> client.put(DocumentId.of("id:ns:music::a"), "{\"fields\":{}}", OperationParameters.empty()).get());
            assertInstanceOf(ResultParseException.class, e.getCause());
        }
    }

    /**
     * The server applies what it answers 200 to; per id, that must be the feed order. A dropped connection may lose
     * the response to an applied operation, which is then retried and applied again right after itself: delivery is
     * at least once, so consecutive repeats are folded before comparing.
     */
    @Test
    void random429s503sGoAwaysAndDroppedConnections_everyOperationLandsInOrder() throws Exception {
        Random random = new Random(42);
        Map<String, List<Integer>> applied = new ConcurrentHashMap<>();
        AtomicInteger drops = new AtomicInteger();
        StubServer.Reply ok = StubServer.Reply.json(200, "{}");
        try (StubServer server = new StubServer(r -> {
                 if (r.path().contains("/handshake/")) return ok;
                 double dice;
                 synchronized (random) { dice = random.nextDouble(); }
                 if (dice < 0.2) return StubServer.Reply.json(429, "{\"message\":\"busy\"}");
                 if (dice < 0.3) return StubServer.Reply.json(503, "{\"message\":\"unavailable\"}");
                 if (dice < 0.31 && drops.incrementAndGet() < 9) return drops.get() % 2 == 0 ? StubServer.Reply.CLOSE : StubServer.Reply.GOAWAY;
                 int sequence = Integer.parseInt(r.body().replaceAll("\\D", ""));
                 List<Integer> sequences = applied.computeIfAbsent(r.path(), __ -> new ArrayList<>());
                 synchronized (sequences) {
                     if (sequences.isEmpty() || sequences.get(sequences.size() - 1) != sequence) sequences.add(sequence);
                 }
                 return ok;
             });
             FeedClient client = client(server)) {
            List<CompletableFuture<Result>> results = new ArrayList<>();
            Map<String, List<Integer>> expected = new HashMap<>();
            for (int i = 0; i < 600; i++) {
                String id = "d" + (i % 50);
                expected.computeIfAbsent("/document/v1/ns/music/docid/" + id, __ -> new ArrayList<>()).add(i);
                results.add(client.put(DocumentId.of("id:ns:music::" + id), "{\"fields\":{\"seq\":" + i + "}}", OperationParameters.empty()));
            }
            FeedClient.await(results);
            assertEquals(expected, applied);
            assertTrue(client.stats().requests() > 600);
        }
    }

}
