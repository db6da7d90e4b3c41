package io.sluice.http;

import io.sluice.feed.DocumentId;
import io.sluice.feed.FeedClient;
import io.sluice.feed.FeedClientBuilder;
import io.sluice.feed.OperationParameters;
import io.sluice.feed.Result;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Feeds the crash workload with the feed client (h2c): one chain of operations per document, each operation sent once
 * the previous one on that document was acknowledged, all documents at once. It records, per document, the
 * operations acknowledged (200) in order and the one sent but not acknowledged, whose effect is unknown. A failure
 * before {@link #expectFailures()} is unexpected and reported; a failure ends its document's chain.
 */
final class CrashFeed implements AutoCloseable {

    /** What one document saw: operations acknowledged, in order, then the one whose outcome is unknown, if any. */
    record History(List<CrashOperation> acknowledged, Optional<CrashOperation> unknown) { }

    private static final class Chain {

        final List<CrashOperation> acknowledged = new ArrayList<>();
        CrashOperation unknown;

    }

    private final FeedClient client;
    private final long seed;
    private final int round;
    private final int killAfter;
    private final List<Chain> chains = new ArrayList<>();
    private final AtomicInteger acknowledged = new AtomicInteger();
    private final CountDownLatch killPoint = new CountDownLatch(1);
    private final List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean failuresExpected;

    private CrashFeed(FeedClient client, long seed, int round, int documents, int killAfter) {
        this.client = client;
        this.seed = seed;
        this.round = round;
        this.killAfter = killAfter;
        for (int document = 0; document < documents; document++)
            chains.add(new Chain());
    }

    /** Starts feeding {@code documents} chains to {@code endpoint}; the kill point is reached after {@code killAfter} acks. */
    static CrashFeed start(URI endpoint, long seed, int round, int documents, int killAfter) {
        FeedClient client = FeedClientBuilder.create(endpoint)
                                             .setConnectionsPerEndpoint(2)
                                             .setInitialInflightFactor(8) // many operations in flight when the kill comes
                                             .setBlockWhenFull(false) // never block a client thread that issues the next operation
                                             .setMaxPendingOperations(2 * documents)
                                             .setTimeout(Duration.ofSeconds(30))
                                             .build();
        CrashFeed feed = new CrashFeed(client, seed, round, documents, killAfter);
        for (int document = 0; document < documents; document++)
            feed.issue(document, 0);
        return feed;
    }

    static String id(int document) {
        return "id:crash:music::doc-" + document;
    }

    /** Waits, at most {@code timeout}, until {@code killAfter} operations were acknowledged. */
    boolean awaitKillPoint(Duration timeout) throws InterruptedException {
        return killPoint.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** From now on failures are expected: the server is about to be killed. Chains go on until they fail. */
    void expectFailures() {
        failuresExpected = true;
    }

    /** Failures that happened before {@link #expectFailures()}. */
    List<String> unexpectedFailures() {
        synchronized (unexpected) {
            return List.copyOf(unexpected);
        }
    }

    int acknowledged() {
        return acknowledged.get();
    }

    /** What each document saw so far, by document number. */
    List<History> histories() {
        List<History> histories = new ArrayList<>();
        for (Chain chain : chains) {
            synchronized (chain) {
                histories.add(new History(List.copyOf(chain.acknowledged), Optional.ofNullable(chain.unknown)));
            }
        }
        return histories;
    }

    /** Fails what is not yet sent and cancels what is in flight. */
    @Override
    public void close() {
        client.close(false);
    }

    private void issue(int document, int index) {
        CrashOperation operation = CrashOperation.of(seed, round, document, index);
        Chain chain = chains.get(document);
        synchronized (chain) {
            chain.unknown = operation;
        }
        CompletableFuture<Result> result;
        try {
            result = send(DocumentId.of(id(document)), operation);
        } catch (RuntimeException e) {
            result = CompletableFuture.failedFuture(e);
        }
        result.whenComplete((outcome, failure) -> completed(document, index, operation, outcome, failure));
    }

    private CompletableFuture<Result> send(DocumentId id, CrashOperation operation) {
        switch (operation.kind()) {
            case PUT: return client.put(id, operation.json(), OperationParameters.empty());
            case UPDATE: return client.update(id, operation.json(),
                                              OperationParameters.empty().createIfNonExistent(operation.create()));
            default: return client.remove(id, OperationParameters.empty());
        }
    }

    private void completed(int document, int index, CrashOperation operation, Result outcome, Throwable failure) {
        if (failure == null && outcome.type() == Result.Type.SUCCESS) {
            Chain chain = chains.get(document);
            synchronized (chain) {
                chain.acknowledged.add(operation);
                chain.unknown = null;
            }
            if (acknowledged.incrementAndGet() == killAfter)
                killPoint.countDown();
            issue(document, index + 1);
        }
        else if ( ! failuresExpected) {
            unexpected.add("doc-" + document + ", operation " + index + " (" + operation + "): "
                           + (failure != null ? failure : outcome));
        }
    }

}
