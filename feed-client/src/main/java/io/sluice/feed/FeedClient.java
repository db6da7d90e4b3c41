package io.sluice.feed;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Feeds document operations to a {@code /document/v1} endpoint over HTTP/2.
 * <p>
 * Operations on the same document id are sent one after another, in the order they were given, each only after the
 * previous one (retries included) completed, and after the callbacks attached to the previous one's future (without
 * an executor) ran: a caller that prints results from its callbacks prints an id's results in feed order.
 * Operations on different ids run concurrently, as many as the throttler allows. Every method is thread-safe. A method
 * that must wait for room in the client blocks the caller until a batch of held operations (up to 32) completed, or,
 * when the client is built with {@code setBlockWhenFull(false)}, returns a future already failed with a
 * {@link FeedException}.
 * <p>
 * The returned futures complete with a {@link Result} for 200 and 412; with a {@link ResultException} for 502, 504
 * and 507; with a {@link ResultParseException} when a response body is not a JSON object; and with a
 * {@link FeedException} for every other status, for transport failures once retries ran out, and when the circuit
 * breaker opened or the client was closed. They complete on a client thread, often the one that reads the connection:
 * do not block in their callbacks, or every connection that thread serves waits.
 */
public interface FeedClient extends AutoCloseable {

    /** Puts a document; {@code json} is the request body, {@code {"fields":{…}}}. */
    CompletableFuture<Result> put(DocumentId documentId, String json, OperationParameters params);

    /** Updates a document; {@code json} is the request body, {@code {"fields":{"f":{"assign":…}}}}. */
    CompletableFuture<Result> update(DocumentId documentId, String json, OperationParameters params);

    /** Removes a document. */
    CompletableFuture<Result> remove(DocumentId documentId, OperationParameters params);

    /**
     * Sends a parsed feed operation, whose body bytes are sent as they are: the fast path for {@link FeedReader}.
     * The operation's condition and create flag are added to {@code params}.
     */
    CompletableFuture<Result> send(FeedOperation operation, OperationParameters params);

    /** What was sent and received since the client was built or {@link #resetStats()} was called. */
    OperationStats stats();

    void resetStats();

    CircuitBreaker.State circuitBreakerState();

    /**
     * Closes the client. When {@code graceful}, first waits for every held operation to complete; otherwise fails
     * those not yet sent and cancels those in flight.
     */
    void close(boolean graceful);

    /** Closes gracefully. */
    @Override default void close() { close(true); }

    /**
     * Waits for all the futures, and returns their results in order.
     *
     * @throws MultiFeedException with every failure, if any failed
     */
    static List<Result> await(List<CompletableFuture<Result>> futures) {
        List<Result> results = new ArrayList<>(futures.size());
        List<FeedException> failures = new ArrayList<>();
        for (CompletableFuture<Result> future : futures) {
            try {
                results.add(future.get());
            }
            catch (ExecutionException | CompletionException e) {
                Throwable cause = e.getCause();
                failures.add(cause instanceof FeedException ? (FeedException) cause : new FeedException(null, cause));
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FeedException("Interrupted while waiting for results");
            }
        }
        if ( ! failures.isEmpty()) throw new MultiFeedException(failures);
        return results;
    }

}
