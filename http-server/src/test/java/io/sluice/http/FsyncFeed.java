package io.sluice.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Puts of new documents from several threads, each recording its answer and whether it was sent after
 * {@link #armed()} (the moment a fault was injected): the history {@link FsyncFailureTest} checks. Every wait is
 * bounded.
 */
final class FsyncFeed implements AutoCloseable {

    private static final Duration WAIT = Duration.ofSeconds(120);

    /** One put: the document's id, whether it was sent after the fault, its status (-1: no answer) and body. */
    record Write(String id, boolean afterArming, int status, String body) {
        @Override
        public String toString() {
            return id + (afterArming ? " (after) " : " (before) ") + status + " "
                   + body.substring(0, Math.min(200, body.length()));
        }
    }

    /** Every put, in the order their answers came. */
    record Result(List<Write> writes) {
        /** Counts of answers by phase and status, for failure messages. */
        String summary() {
            Map<String, Integer> counts = new TreeMap<>();
            for (Write write : writes)
                counts.merge((write.afterArming ? "after " : "before ") + write.status, 1, Integer::sum);
            return "answers by phase and status " + counts;
        }
    }

    private final URI uri;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                                              .connectTimeout(Duration.ofSeconds(5)).build();
    private final ExecutorService workers;
    private final List<Write> writes = new ArrayList<>();
    private volatile boolean armed;
    private volatile boolean running = true;

    private FsyncFeed(URI uri, int threads) {
        this.uri = uri;
        this.workers = Executors.newFixedThreadPool(threads);
        for (int worker = 0; worker < threads; worker++) {
            int w = worker;
            workers.execute(() -> feed(w));
        }
    }

    /** Starts {@code threads} threads putting documents to the server at {@code uri}. */
    static FsyncFeed start(URI uri, int threads) {
        return new FsyncFeed(uri, threads);
    }

    /** The /document/v1 path of document {@code id}. */
    static String path(String id) {
        return "/document/v1/fsync/music/docid/" + id;
    }

    /** The fields every put of {@code id} writes. */
    static Map<String, Object> fields(String id) {
        return Map.of("title", "title of " + id);
    }

    /** The body of a put of {@code id}. */
    static String body(String id) {
        return "{\"fields\":{\"title\":\"title of " + id + "\"}}";
    }

    /** From now on, writes are recorded as sent after the fault. */
    void armed() {
        armed = true;
    }

    /** How many writes sent after the fault were answered so far. */
    synchronized int answeredAfterArming() {
        return (int) writes.stream().filter(Write::afterArming).count();
    }

    /** Waits until {@code count} writes of that phase have been answered. */
    void awaitAnswers(int count, boolean afterArming) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (answered(afterArming) < count) {
            if (System.nanoTime() - deadline > 0)
                throw new AssertionError("Only " + answered(afterArming) + " of " + count + " writes answered within "
                                         + WAIT + "; " + stop().summary());
            Thread.sleep(20);
        }
    }

    private synchronized int answered(boolean afterArming) {
        return (int) writes.stream().filter(write -> write.afterArming == afterArming).count();
    }

    /** Stops feeding, waits for the writes in flight, and returns every answer. */
    Result stop() {
        running = false;
        workers.shutdown();
        try {
            if ( ! workers.awaitTermination(WAIT.toSeconds(), TimeUnit.SECONDS))
                throw new AssertionError("Writes still in flight " + WAIT + " after the feed stopped");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while stopping the feed", e);
        }
        synchronized (this) {
            return new Result(List.copyOf(writes));
        }
    }

    @Override
    public void close() {
        running = false;
        workers.shutdownNow();
    }

    private void feed(int worker) {
        for (int n = 0; running; n++) {
            String id = "w" + worker + "-" + n;
            boolean after = armed; // read before sending: a write marked "after" surely started after the fault
            int status;
            String body;
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri.resolve(path(id)))
                                                                     .timeout(Duration.ofSeconds(30))
                                                                     .header("Content-Type", "application/json")
                                                                     .POST(HttpRequest.BodyPublishers.ofString(body(id)))
                                                                     .build(),
                                                          HttpResponse.BodyHandlers.ofString());
                status = response.statusCode();
                body = response.body();
            } catch (IOException e) {
                status = -1;
                body = e.toString();
            } catch (InterruptedException e) {
                return;
            }
            synchronized (this) {
                writes.add(new Write(id, after, status, body));
            }
        }
    }

}
