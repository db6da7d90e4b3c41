package io.sluice.container.document;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import org.eclipse.jetty.http.HttpStatus;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A non-streamed visit page (spec §2.4, §6.2): collects documents as JSON until the page has
 * {@code wantedDocumentCount} of them at a bucket boundary, then renders the whole response with the status decided
 * at the end. {@code documentCount} is always the number of entries written to {@code documents}.
 */
final class PagedVisitResponse implements PageDriver.Sink {

    /** The most entries asked for at once. */
    static final int MAX_BATCH = 1024;

    /** A page this large ends at the next bucket boundary even before it has the wanted number of documents. */
    static final long SOFT_MAX_BYTES = 32L << 20;

    /** A page this large ends at once, even inside a huge bucket, to bound the memory one request holds. */
    static final long HARD_MAX_BYTES = 128L << 20;

    private static final JsonFactory factory = new JsonFactory();

    private final VisitFormat format;
    private final int wanted;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
    private final JsonGenerator json;
    private int count = 0;

    PagedVisitResponse(VisitFormat format, int wanted) {
        this.format = format;
        this.wanted = wanted;
        try {
            this.json = factory.createGenerator(out);
            format.start(json);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized int nextBatchSize() {
        return batchSize(count, wanted, MAX_BATCH);
    }

    /**
     * How many entries to ask for when {@code count} of {@code wanted} are in hand: what is missing, at most
     * {@code max}; once there are enough, one at a time, because a backend ends a batch at a bucket boundary only when
     * it has what was asked for as a bucket ends, so a small ask ends the page right where the current bucket does.
     */
    static int batchSize(int count, int wanted, int max) {
        return count >= wanted ? 1 : Math.min(max, wanted - count);
    }

    @Override
    public synchronized CompletableFuture<Optional<String>> accept(VisitBatch batch) {
        try {
            for (VisitEntry entry : batch.entries()) {
                format.entry(json, entry);
                count++;
            }
            if ( ! batch.entries().isEmpty())
                format.progress(json, batch);
            json.flush();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return CompletableFuture.completedFuture(Optional.empty());
    }

    @Override
    public synchronized boolean satisfied() {
        return count >= wanted || out.size() >= SOFT_MAX_BYTES;
    }

    @Override
    public synchronized boolean full() {
        return out.size() >= HARD_MAX_BYTES;
    }

    /** The rendered page, and the copy of it the reply will be. */
    @Override
    public synchronized long heldBytes() {
        return 2L * out.size();
    }

    /** The number of entries written so far. */
    synchronized int documentCount() {
        return count;
    }

    /**
     * The response to a page that ended with {@code end}: 500 with the failure and no continuation, or 503 if the
     * content layer was unavailable before any batch (clients retry it); 504 if time ran out before any batch
     * arrived; else 200, with the continuation iff the visit is unfinished (also when the content layer became
     * unavailable after a batch: see {@link PageDriver.End#reportedFailure()}).
     */
    synchronized DocumentResponses.Reply reply(PageDriver.End end, Trace trace, Duration budget) {
        int status = HttpStatus.OK_200;
        Optional<String> message = end.reportedFailure();
        if (message.isPresent())
            status = end.failureStatus();
        else if (end.expired() && end.batches() == 0) {
            status = HttpStatus.GATEWAY_TIMEOUT_504;
            message = Optional.of("No buckets visited within timeout of " + budget.toMillis() + "ms (request timeout -5s)");
        }
        try {
            format.end(json, new VisitFormat.Summary(count, trace, message, status != HttpStatus.OK_200,
                                                     status == HttpStatus.OK_200 ? end.continuation() : Optional.empty(),
                                                     100));
            json.close();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new DocumentResponses.Reply(status, out.toByteArray());
    }

}
