package io.sluice.container.document;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.content.ProgressToken;
import io.sluice.content.Visit;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * A streamed visit (spec §2.4, §6.4): documents are written in chunks of about {@value #CHUNK_DOCUMENTS} entries or
 * {@value #CHUNK_BYTES} bytes as the client takes them. There is at most one write or one {@link Visit#next}
 * outstanding, and the next batch is pulled only when the previous write has completed, so a slow client slows the
 * visit down instead of filling memory. The status (200) is sent before the first document; how the visit ended goes
 * in the epilogue, with the continuation whenever it is unfinished (error and time-out included).
 *
 * <p>A failed write (the client is gone) or {@link #abort} cancels the visit and fails the completion callback; the
 * end of the response succeeds it. Either way the visit is cancelled, releasing what the backend holds.
 *
 * <p>Memory: each pull first reserves {@value PageDriver#HELD_PER_STORED_BYTE} times its byte limit from the visits'
 * {@link MemoryBudget} and holds it until what the batch rendered to is written, so a client that stops reading holds
 * its share of the budget, not more. Without room, the stream waits until some is released (or its time is up). A
 * batch stopped before a document larger than the limit is asked again with a limit that fits it.
 */
final class StreamedVisitResponse extends IteratingCallback {

    static final int CHUNK_DOCUMENTS = 128;
    static final int CHUNK_BYTES = 64 << 10;
    /**
     * Entries in the first pull, before the size of a rendered document is known. Later pulls aim at
     * {@value #PULL_BYTES} rendered bytes: a client that stops reading then holds about that much of each stalled
     * visit, not {@value #CHUNK_DOCUMENTS} documents of whatever size. Not smaller: every pull costs the store a seek,
     * on the threads reads share.
     */
    static final int FIRST_PULL = 16;
    static final int PULL_BYTES = 256 << 10;

    private static final JsonFactory factory = new JsonFactory();

    private final Visit visit;
    private final Content.Sink sink;
    private final Callback completion;
    private final VisitFormat format;
    private final int wanted;
    private final Clock clock;
    private final Instant end;
    private final Trace trace;
    private final LongConsumer bytesWritten;
    private final MemoryBudget memory;
    private final WriteWatch writes;
    private final AtomicLong held = new AtomicLong(); // reserved for the pulls since the last completed write
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(CHUNK_BYTES + 8192);
    private final JsonGenerator json;

    private volatile Pull pull;            // the most recent pull
    private volatile Pull completedPull;   // handed from the pull's completion to process()
    private volatile boolean expired;
    private volatile boolean resumable;    // whether there is a continuation to end with
    private final CompletableFuture<Void> done = new CompletableFuture<>();

    // Touched only by process(), which Jetty never runs concurrently with itself.
    private boolean started = false;
    private boolean ended = false;
    private boolean closing = false;
    private volatile int count = 0;        // read by documentCount() from other threads
    private int chunkEntries = 0;
    private long entryBytes = 0;           // rendered bytes of the entries so far, for the size of the next pull
    private long maxBytes = PULL_BYTES;    // the next pull's byte limit
    private boolean writing = false;       // whether the last action scheduled was a write
    private Optional<ProgressToken> continuation;
    private double percentFinished = 0;
    private Optional<String> message = Optional.empty();

    /** One {@link Visit#next} and its result; claimed exactly once, by its completion or by an abort or time-out. */
    private static final class Pull {
        private final AtomicBoolean claimed = new AtomicBoolean();
        private VisitBatch batch;
        private Throwable failure;

        boolean claim() {
            return claimed.compareAndSet(false, true);
        }
    }

    /**
     * @param visit        the visit to stream, resumed from {@code start}
     * @param sink         where the response body goes; its status and headers must already be set
     * @param completion   completed once the body is fully written, or failed when writing fails
     * @param format       JSON or JSON lines
     * @param wanted       the stream ends at the first bucket boundary with at least this many entries written
     * @param end          when the visit's time is up, on {@code clock}
     * @param bytesWritten told the size of every chunk written
     * @param memory       the visits' shared memory
     * @param writes       told when each write starts and ends, to find a client that stopped reading
     */
    StreamedVisitResponse(Visit visit, Optional<ProgressToken> start, Content.Sink sink, Callback completion,
                          VisitFormat format, int wanted, Clock clock, Instant end, Trace trace,
                          LongConsumer bytesWritten, MemoryBudget memory, WriteWatch writes) {
        this.visit = Objects.requireNonNull(visit, "visit");
        this.continuation = Objects.requireNonNull(start, "start");
        this.resumable = start.isPresent();
        this.sink = Objects.requireNonNull(sink, "sink");
        this.completion = Objects.requireNonNull(completion, "completion");
        this.format = Objects.requireNonNull(format, "format");
        this.wanted = wanted;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.end = Objects.requireNonNull(end, "end");
        this.trace = Objects.requireNonNull(trace, "trace");
        this.bytesWritten = Objects.requireNonNull(bytesWritten, "bytesWritten");
        this.memory = Objects.requireNonNull(memory, "memory");
        this.writes = Objects.requireNonNull(writes, "writes");
        try {
            this.json = factory.createGenerator(out);
        }
        catch (IOException e) {
            throw new IllegalStateException("Creating a JSON generator in memory failed", e);
        }
    }

    /** Completes when the response is over, successfully or not. */
    CompletableFuture<Void> done() {
        return done;
    }

    /**
     * Ends the stream at the next opportunity with what was written so far, when the visit's time is up. A batch being
     * read is dropped, unless there is no continuation yet to end with (the 200 is sent, so the end must say where to
     * resume): then the stream waits for it, and {@link #abort} is the last resort.
     */
    void expire() {
        expired = true;
        Pull outstanding = pull;
        if (resumable && outstanding != null && outstanding.claim()) {
            completedPull = outstanding; // with neither batch nor failure: the batch being read is dropped
            succeeded();
        }
    }

    /** The number of entries written so far. */
    int documentCount() {
        return count;
    }

    @Override
    protected Action process() throws IOException {
        if (writing) { // what the pulls since the last write rendered to is written
            writing = false;
            writes.written();
            memory.release(held.getAndSet(0));
        }
        if ( ! started) { // commits the status and headers at once, with whatever starts the body
            started = true;
            format.start(json);
            write(false);
            return Action.SCHEDULED;
        }
        Pull completed = completedPull;
        if (completed != null) {
            completedPull = null;
            take(completed);
        }
        if ( ! ended && resumable && (expired || ! clock.instant().isBefore(end))) {
            ended = true;
            trace.note(1, "Visit time budget exhausted after " + count + " documents");
        }
        if (closing)
            return Action.SUCCEEDED;
        if (ended) {
            closing = true;
            format.end(json, new VisitFormat.Summary(count, trace, message, message.isPresent(), continuation,
                                                     percentFinished));
            json.close();
            write(true);
            return Action.SCHEDULED;
        }
        // The first documents go out at once: the client sees progress early, and a client already gone is noticed.
        boolean firstChunk = chunkEntries > 0 && count == chunkEntries;
        if (chunkEntries >= CHUNK_DOCUMENTS || out.size() >= CHUNK_BYTES || firstChunk) {
            write(false);
            return Action.SCHEDULED;
        }
        if (out.size() == 0) // nothing rendered waits to be written (a batch stopped before a large document)
            memory.release(held.getAndSet(0));
        Pull next = new Pull();
        pull = next;
        if (expired && resumable && next.claim()) { // expire() ran before this pull was visible to it
            completedPull = next;
            succeeded();
            return Action.SCHEDULED;
        }
        long reservation = PageDriver.HELD_PER_STORED_BYTE * maxBytes;
        if ( ! memory.reserveOrWait(reservation, held.get(), () -> {
            if (next.claim()) { // with neither batch nor failure: process() then tries again
                completedPull = next;
                succeeded();
            }
        }))
            return Action.SCHEDULED;
        held.addAndGet(reservation);
        CompletableFuture<VisitBatch> batch;
        try {
            batch = visit.next(PagedVisitResponse.batchSize(count, wanted, pullSize(count, entryBytes)), maxBytes);
        }
        catch (RuntimeException e) {
            batch = CompletableFuture.failedFuture(e);
        }
        batch.whenComplete((pulled, failure) -> {
            if ( ! next.claim())
                return;
            next.batch = pulled;
            next.failure = failure;
            completedPull = next;
            succeeded();
        });
        return Action.SCHEDULED;
    }

    private void take(Pull completed) throws IOException {
        if (completed.failure != null) {
            if ( ! resumable) // an end without a continuation would say the visit is done: cut the body off instead
                throw new IOException("Visit failed before any progress: " + PageDriver.message(completed.failure),
                                      completed.failure);
            ended = true;
            if ( ! (completed.failure instanceof CancellationException))
                message = Optional.of(PageDriver.message(completed.failure));
            return;
        }
        VisitBatch batch = completed.batch;
        if (batch == null)
            return;
        maxBytes = Math.max(PULL_BYTES, batch.blockedBytes());
        json.flush();
        int before = out.size();
        for (VisitEntry entry : batch.entries()) {
            format.entry(json, entry);
            count++;
            chunkEntries++;
        }
        json.flush();
        entryBytes += out.size() - before;
        if ( ! batch.entries().isEmpty())
            format.progress(json, batch);
        json.flush();
        continuation = batch.continuation();
        resumable = true;
        percentFinished = batch.percentFinished();
        if (batch.isFinished() || (batch.atBucketBoundary() && count >= wanted))
            ended = true;
    }

    /** How many entries to pull next: {@link #FIRST_PULL}, then as many as render to about {@link #PULL_BYTES}. */
    static int pullSize(int entries, long renderedBytes) {
        if (entries == 0)
            return FIRST_PULL;
        long perEntry = Math.max(1, renderedBytes / entries);
        return (int) Math.max(1, Math.min(CHUNK_DOCUMENTS, PULL_BYTES / perEntry));
    }

    private void write(boolean last) throws IOException {
        json.flush();
        byte[] bytes = out.toByteArray();
        out.reset();
        chunkEntries = 0;
        bytesWritten.accept(bytes.length);
        writing = true;
        writes.writing();
        sink.write(last, ByteBuffer.wrap(bytes), this);
    }

    @Override
    protected void onAborted(Throwable cause) {
        visit.cancel();
        Pull outstanding = pull;
        if (outstanding != null && outstanding.claim())
            failed(cause); // the pull would otherwise keep the abort waiting for a backend that may never answer
    }

    @Override
    protected void onCompleteSuccess() {
        writes.written();
        visit.cancel();
        memory.release(held.getAndSet(0));
        completion.succeeded();
        done.complete(null);
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        writes.written();
        visit.cancel();
        memory.release(held.getAndSet(0));
        completion.failed(cause);
        done.complete(null);
    }

}
