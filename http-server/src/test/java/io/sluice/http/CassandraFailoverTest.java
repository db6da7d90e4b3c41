package io.sluice.http;

import io.sluice.content.cassandra.harness.CassandraCluster;
import io.sluice.content.cassandra.harness.CassandraNode;
import io.sluice.content.cassandra.harness.SharedNode;
import io.sluice.feed.DocumentId;
import io.sluice.feed.FeedClient;
import io.sluice.feed.FeedClientBuilder;
import io.sluice.feed.OperationParameters;
import io.sluice.feed.Result;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The failure test of the Cassandra backend, end to end: the feed client feeds a Sluice server whose content cluster
 * is a three-node Cassandra cluster at replication factor 3, while one node is killed with SIGKILL and later
 * restarted. No operation may fail at the client (it retries 429 and 503 as it always does), and every acknowledged
 * document must read back through the server afterwards. Runs with {@code -Pcassandra-distributed} only.
 */
@Tag("cassandra-distributed")
class CassandraFailoverTest {

    private static final Duration STEP_TIMEOUT = Duration.ofMinutes(5);

    @TempDir
    static Path directory;

    private static CassandraCluster cluster;
    private static PackagedServer server;

    @BeforeAll
    static void start() throws java.io.IOException {
        SharedNode.release(); // two cores: no idle single node beside the cluster
        cluster = CassandraCluster.start("feedclient", 3);
        String contactPoints = cluster.contactPoints().stream().map(a -> a.getHostString() + ":" + a.getPort())
                                      .collect(Collectors.joining(","));
        server = PackagedServer.start(directory, TestPki.create(java.nio.file.Files.createDirectories(directory.resolve("pki"))),
                                      "<cassandra contact-points=\"" + contactPoints + "\"/>", 3);
    }

    @AfterAll
    static void stop() {
        if (server != null) server.close();
        if (cluster != null) cluster.destroy();
    }

    @Test
    void feedClient_whileOneOfThreeNodesIsKilledAndRestarted_failsNothingAndKeepsEveryAcknowledgedDocument() throws Exception {
        Feed feed = new Feed(server.plain());
        Thread feeder = new Thread(feed, "failover-feeder");
        feeder.start();
        feed.awaitAcknowledged(300);
        CassandraNode victim = cluster.node(3);
        victim.kill();
        int atKill = feed.acknowledged.size();
        feed.awaitAcknowledged(atKill + 600);
        cluster.restart(victim); // the feed goes on while the node restarts and receives hints
        int atRestart = feed.acknowledged.size();
        feed.awaitAcknowledged(atRestart + 300);
        feed.stop();
        feeder.join(STEP_TIMEOUT.toMillis());
        feed.client.close();

        System.out.printf("Feed client failover: %d documents acknowledged (%d while the node was down or restarting), "
                          + "%d failed%n", feed.acknowledged.size(), atRestart - atKill, feed.failures.size());
        assertTrue(feed.failures.isEmpty(), feed.describeFailures());
        assertEquals(feed.sent, feed.acknowledged.size());
        assertEveryDocumentReadable(server.plain(), new ArrayList<>(feed.acknowledged.keySet()));
    }

    /**
     * Every acknowledged document answers 200 with its own title to a GET through the server. A read that answers
     * 429, 503 or 504 is asked again (up to 5 times, a second apart), as a client would: those say nothing about the
     * document; a 404 or another document says it was lost.
     */
    private static void assertEveryDocumentReadable(URI server, List<Integer> numbers) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        for (int from = 0; from < numbers.size(); from += 200) {
            List<Integer> chunk = numbers.subList(from, Math.min(numbers.size(), from + 200));
            List<CompletableFuture<HttpResponse<String>>> reads = new ArrayList<>();
            for (int n : chunk) {
                reads.add(read(http, server, n));
            }
            for (int i = 0; i < chunk.size(); i++) {
                HttpResponse<String> response = reads.get(i).get(2, TimeUnit.MINUTES);
                for (int again = 0; again < 5 && List.of(429, 503, 504).contains(response.statusCode()); again++) {
                    Thread.sleep(1000);
                    response = read(http, server, chunk.get(i)).get(2, TimeUnit.MINUTES);
                }
                assertEquals(200, response.statusCode(), "failover-" + chunk.get(i) + ": " + response.body());
                assertTrue(response.body().contains("\"title\":\"Title " + chunk.get(i) + "\""), response.body());
            }
        }
    }

    private static CompletableFuture<HttpResponse<String>> read(HttpClient http, URI server, int number) {
        URI uri = server.resolve("/document/v1/ns/music/docid/failover-" + number + "?timeout=60s");
        return http.sendAsync(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Puts documents failover-0, 1, ... until stopped; remembers which were acknowledged and which failed. */
    private static final class Feed implements Runnable {

        final FeedClient client;
        final Map<Integer, Result> acknowledged = new ConcurrentHashMap<>();
        final Map<Integer, String> failures = new ConcurrentHashMap<>();
        private final Object progress = new Object();
        private volatile boolean stopped = false;
        volatile int sent = 0;

        Feed(URI endpoint) {
            this.client = FeedClientBuilder.create(endpoint).setConnectionsPerEndpoint(2).build();
        }

        @Override public void run() {
            List<CompletableFuture<Result>> results = new ArrayList<>();
            for (int n = 0; ! stopped; n++) {
                int number = n;
                String json = "{\"fields\":{\"title\":\"Title " + n + "\",\"year\":" + (1950 + n % 70) + "}}";
                results.add(client.put(DocumentId.of("id:ns:music::failover-" + n), json, OperationParameters.empty())
                                  .whenComplete((result, failure) -> completed(number, result, failure)));
                sent = n + 1;
            }
            CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).exceptionally(failure -> null).join();
        }

        private void completed(int number, Result result, Throwable failure) {
            if (failure != null) failures.put(number, String.valueOf(failure));
            else if (result.type() != Result.Type.SUCCESS) failures.put(number, result.type() + ": " + result.resultMessage());
            else acknowledged.put(number, result);
            synchronized (progress) { progress.notifyAll(); }
        }

        void awaitAcknowledged(int count) throws InterruptedException {
            long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
            synchronized (progress) {
                while (acknowledged.size() < count) {
                    assertTrue(failures.isEmpty(), describeFailures());
                    long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                    assertTrue(left > 0, "only " + acknowledged.size() + " of " + count + " acknowledged in " + STEP_TIMEOUT);
                    progress.wait(left);
                }
            }
        }

        void stop() { stopped = true; }

        /** How many operations failed, with the first few failures by document number. */
        String describeFailures() {
            return failures.size() + " of " + sent + " operations failed, e.g. "
                   + new java.util.TreeMap<>(failures).entrySet().stream().limit(5)
                                                      .map(entry -> "failover-" + entry.getKey() + ": " + entry.getValue())
                                                      .collect(Collectors.joining("; "));
        }

    }

}
