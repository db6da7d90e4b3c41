package io.sluice.content.cassandra;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.IntValue;
import io.sluice.document.StringValue;
import io.sluice.content.ContentBackend;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Outcome.Status;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Feeds numbered documents through a backend like a feed client would: a bounded number in flight, and retries of
 * the outcomes a client retries (429 OVERLOAD, 503 UNAVAILABLE and 504 TIMEOUT) with a short back-off, up to a limit.
 * Everything else, or running out of retries, is a failed operation. Remembers every acknowledged document.
 * <p>
 * A feed that runs while nodes start can be paced ({@link #paced}): on two cores an unpaced one takes all the CPU the
 * starting node needs, and the data it piles up, which that node then streams, grows with the machine's speed.
 */
final class Feeder {

    private static final int MAX_ATTEMPTS = 50;
    private static final Executor BACK_OFF = CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS);

    private final ContentBackend backend;
    private final DocumentType type;
    private final String prefix;
    private final int bodyBytes;
    private final int maxInFlight;
    private final Semaphore inFlight;
    private long nanosPerDocument;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicInteger retries = new AtomicInteger();
    private final Map<DocumentId, Document> acknowledged = new ConcurrentHashMap<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final NavigableMap<Integer, CompletableFuture<Void>> waiters = new ConcurrentSkipListMap<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private Thread thread;

    Feeder(ContentBackend backend, DocumentType type, String prefix, int bodyBytes, int maxInFlight) {
        this.backend = backend;
        this.type = type;
        this.prefix = prefix;
        this.bodyBytes = bodyBytes;
        this.maxInFlight = maxInFlight;
        this.inFlight = new Semaphore(maxInFlight);
    }

    /** Issues at most {@code perSecond} documents a second from {@link #start}; unpaced otherwise. */
    Feeder paced(int perSecond) {
        nanosPerDocument = TimeUnit.SECONDS.toNanos(1) / perSecond;
        return this;
    }

    /** Starts feeding until {@link #stop()} (or {@code limit} documents). */
    Feeder start(int limit) {
        thread = new Thread(() -> {
            long start = System.nanoTime();
            while (!stopped.get() && next.get() < limit) {
                long early = start + next.get() * nanosPerDocument - System.nanoTime();
                if (early > 0) {
                    LockSupport.parkNanos(early);
                    continue; // so that stop() is seen within one document's time
                }
                try {
                    inFlight.acquire();
                } catch (InterruptedException e) {
                    return;
                }
                Document document = document(next.getAndIncrement());
                put(document, 1).whenComplete((outcome, failure) -> {
                    inFlight.release();
                    if (failure != null || !outcome.isSuccess()) {
                        failures.add(document.id() + ": " + (failure != null ? failure : outcome));
                    } else {
                        acknowledged.put(document.id(), document);
                        int count = acknowledged.size();
                        waiters.headMap(count, true).values().forEach(waiter -> waiter.complete(null));
                    }
                });
            }
        }, "feeder-" + prefix);
        thread.start();
        return this;
    }

    /** Completes once at least {@code count} documents are acknowledged. */
    CompletableFuture<Void> acknowledged(int count) {
        CompletableFuture<Void> waiter = waiters.computeIfAbsent(count, n -> new CompletableFuture<>());
        if (acknowledged.size() >= count) {
            waiter.complete(null);
        }
        return waiter;
    }

    /** Stops issuing documents and waits for those in flight to complete. */
    void stop() throws InterruptedException {
        stopped.set(true);
        thread.join();
        inFlight.acquire(maxInFlight);
        inFlight.release(maxInFlight);
    }

    Map<DocumentId, Document> acknowledged() {
        return Map.copyOf(acknowledged);
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    /** Operations that were retried after a 429, 503 or 504 outcome. */
    int retries() {
        return retries.get();
    }

    private CompletableFuture<Outcome> put(Document document, int attempt) {
        return backend.put(document, OperationOptions.until(Instant.now().plusSeconds(30))).thenCompose(outcome -> {
            boolean retryable = outcome.status() == Status.OVERLOAD || outcome.status() == Status.UNAVAILABLE
                                || outcome.status() == Status.TIMEOUT;
            if (!retryable || attempt >= MAX_ATTEMPTS) {
                return CompletableFuture.completedFuture(outcome);
            }
            retries.incrementAndGet();
            return CompletableFuture.supplyAsync(() -> null, BACK_OFF).thenCompose(ignored -> put(document,
                                                                                                  attempt + 1));
        });
    }

    private Document document(int n) {
        DocumentId id = DocumentId.of("id:ns:" + type.name() + "::" + prefix + "-" + n);
        return Document.builder(type, id)
                       .set("title", new StringValue(text(n)))
                       .set("year", new IntValue(n))
                       .build();
    }

    private String text(int n) {
        StringBuilder text = new StringBuilder(bodyBytes);
        long state = n * 0x9E3779B97F4A7C15L + 1;
        while (text.length() < bodyBytes) {
            state ^= state << 13;
            state ^= state >>> 7;
            state ^= state << 17;
            text.append((char) ('a' + Math.floorMod(state, 26)));
        }
        return text.toString();
    }

}
