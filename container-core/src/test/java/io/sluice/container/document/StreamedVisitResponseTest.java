package io.sluice.container.document;

import io.sluice.container.JsonTree;
import io.sluice.container.ManualClock;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.Slice;
import io.sluice.content.BucketSpace;
import io.sluice.content.DocumentKey;
import io.sluice.content.ProgressToken;
import io.sluice.content.Visit;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import io.sluice.document.json.TensorFormat;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The streaming write loop on its own: backpressure, failed writes, aborts and time-outs, with a scripted visit. */
class StreamedVisitResponseTest {

    private static final DocumentType MUSIC = HandlerFixture.types().get("music");

    private final ManualClock clock = HandlerFixture.newClock();
    private MemoryBudget memory = MemoryBudget.of(64L << 20);
    private final ScriptedVisit visit = new ScriptedVisit();
    private final List<Callback> pendingWrites = new ArrayList<>();
    private final ByteArrayOutputStream written = new ByteArrayOutputStream();
    private final AtomicReference<Throwable> completion = new AtomicReference<>();
    private boolean completed = false;

    /** A visit without end whose batches the test either answers at once or leaves pending. */
    private static final class ScriptedVisit implements Visit {
        int pulls = 0;
        int position = 0;
        boolean cancelled = false;
        boolean answerAtOnce = true;
        long blockNext = 0;
        final List<Long> maxBytes = new ArrayList<>();
        CompletableFuture<VisitBatch> pending;

        @Override
        public synchronized CompletableFuture<VisitBatch> next(int maxEntries, long maxBytes) {
            pulls++;
            this.maxBytes.add(maxBytes);
            pending = new CompletableFuture<>();
            if (blockNext > 0) {
                ProgressToken token = ProgressToken.of(8, Slice.ALL, BucketSpace.DEFAULT, DocumentKey.bucketStart((long) position << 40));
                pending.complete(new VisitBatch(List.of(), Optional.of(token), false, 1, blockNext));
                blockNext = 0;
            }
            else if (answerAtOnce)
                pending.complete(batch(maxEntries));
            return pending;
        }

        synchronized VisitBatch batch(int entries) {
            List<VisitEntry> batch = new ArrayList<>();
            for (int i = 0; i < entries; i++, position++)
                batch.add(VisitEntry.put(Document.of(MUSIC, DocumentId.of("id:ns:music::" + position)), 1));
            ProgressToken token = ProgressToken.of(8, Slice.ALL, BucketSpace.DEFAULT, DocumentKey.bucketStart((long) position << 40));
            return new VisitBatch(batch, Optional.of(token), true, 1);
        }

        @Override
        public synchronized void cancel() {
            cancelled = true;
        }
    }

    private StreamedVisitResponse stream(Optional<ProgressToken> start) {
        Callback done = Callback.from(() -> completed = true, completion::set);
        return new StreamedVisitResponse(visit, start, (last, buffer, callback) -> {
            written.writeBytes(bytes(buffer));
            pendingWrites.add(callback);
        }, done, VisitFormat.json("/document/v1/", TensorFormat.SHORT), Integer.MAX_VALUE, clock,
           clock.instant().plus(Duration.ofSeconds(10)), Trace.off(clock), bytes -> { }, memory, WriteWatch.NONE);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    private void completeWrite() {
        pendingWrites.remove(0).succeeded();
    }

    @Test
    void slowReader_backendIsPulledOnlyAfterEachWriteCompletes() {
        StreamedVisitResponse stream = stream(Optional.empty());
        stream.iterate();
        assertEquals(1, pendingWrites.size()); // the start of the body, committing the 200
        assertEquals(0, visit.pulls);
        for (int round = 1; round <= 5; round++) {
            completeWrite();
            assertEquals(round, visit.pulls, "one batch per completed write, never more");
            assertEquals(1, pendingWrites.size());
            assertEquals(StreamedVisitResponse.FIRST_PULL + StreamedVisitResponse.CHUNK_DOCUMENTS * (round - 1),
                         stream.documentCount()); // the small first pull goes out at once, then whole chunks
        }
        assertFalse(completed);
        assertFalse(visit.cancelled);
    }

    /** Aborts {@code stream} and fails its pending writes, as the connection does when the client is gone. */
    private void abortAsTheClientLeaves(StreamedVisitResponse stream) {
        IllegalStateException gone = new IllegalStateException("client gone");
        stream.abort(gone);
        pendingWrites.forEach(write -> write.failed(gone));
    }

    private static final long PULL_RESERVATION = PageDriver.HELD_PER_STORED_BYTE * (long) StreamedVisitResponse.PULL_BYTES;

    @Test
    void stalledReader_holdsOnePullsReservation_untilTheResponseEnds() {
        StreamedVisitResponse stream = stream(Optional.empty());
        stream.iterate();
        assertEquals(0, memory.reserved());
        for (int round = 1; round <= 5; round++) {
            completeWrite();
            assertEquals(PULL_RESERVATION, memory.reserved(), "what one pull rendered is held until it is written");
        }
        abortAsTheClientLeaves(stream);
        assertEquals(0, memory.reserved());
    }

    @Test
    void noRoom_waitsUntilSomeIsReleased() {
        memory = MemoryBudget.of(PULL_RESERVATION);
        memory.force(1); // another visit's
        StreamedVisitResponse stream = stream(Optional.empty());
        stream.iterate();
        completeWrite();
        assertEquals(0, visit.pulls);
        assertTrue(pendingWrites.isEmpty());
        memory.release(1);
        assertEquals(1, visit.pulls);
        assertEquals(1, pendingWrites.size());
        assertEquals(PULL_RESERVATION, memory.reserved());
        abortAsTheClientLeaves(stream);
        assertEquals(0, memory.reserved());
    }

    @Test
    void expiryWhileWaitingForRoom_endsWithTheContinuation() {
        memory = MemoryBudget.of(PULL_RESERVATION);
        memory.force(1);
        ProgressToken start = visit.batch(0).continuation().orElseThrow();
        StreamedVisitResponse stream = stream(Optional.of(start));
        stream.iterate();
        completeWrite();
        stream.expire();
        completeWrite(); // the epilogue
        assertTrue(completed);
        assertEquals(start.encoded(), JsonTree.object(written.toString(StandardCharsets.UTF_8)).get("continuation"));
        memory.release(1);
        assertEquals(0, memory.reserved());
        assertEquals(0, visit.pulls);
    }

    @Test
    void batchBlockedByALargeDocument_isAskedAgainWithRoomForIt() {
        long large = 40L << 20;
        visit.blockNext = large;
        StreamedVisitResponse stream = stream(Optional.empty());
        stream.iterate();
        completeWrite();
        assertEquals(List.of((long) StreamedVisitResponse.PULL_BYTES, large), visit.maxBytes);
        assertEquals(PageDriver.HELD_PER_STORED_BYTE * large, memory.reserved()); // alone, over the capacity
        completeWrite();
        assertEquals((long) StreamedVisitResponse.PULL_BYTES, visit.maxBytes.get(2));
        abortAsTheClientLeaves(stream);
        assertEquals(0, memory.reserved());
    }

    @Test
    void pullSize_aimsAtPullBytesOnceEntrySizeIsKnown() {
        assertEquals(StreamedVisitResponse.FIRST_PULL, StreamedVisitResponse.pullSize(0, 0));
        assertEquals(StreamedVisitResponse.CHUNK_DOCUMENTS, StreamedVisitResponse.pullSize(100, 100 * 50));
        assertEquals(26, StreamedVisitResponse.pullSize(16, 16 * 10_000));
        assertEquals(1, StreamedVisitResponse.pullSize(1, 5_000_000));
    }

    @Test
    void failedWrite_cancelsTheVisitAndFailsTheResponse() {
        StreamedVisitResponse stream = stream(Optional.empty());
        stream.iterate();
        completeWrite();
        IllegalStateException gone = new IllegalStateException("client gone");
        pendingWrites.remove(0).failed(gone);
        assertTrue(visit.cancelled);
        assertEquals(gone, completion.get());
        assertTrue(stream.done().isDone());
    }

    @Test
    void abortWhileTheBackendReads_cancelsTheVisitAndFailsTheResponse() {
        visit.answerAtOnce = false;
        StreamedVisitResponse stream = stream(Optional.empty());
        stream.iterate();
        completeWrite();
        assertEquals(1, visit.pulls);
        IllegalStateException gone = new IllegalStateException("client gone");
        stream.abort(gone);
        assertTrue(visit.cancelled);
        assertEquals(gone, completion.get());
    }

    @Test
    void backendFailureBeforeAnyProgress_cutsTheBodyOff() {
        visit.answerAtOnce = false;
        StreamedVisitResponse stream = stream(Optional.empty());
        stream.iterate();
        completeWrite();
        visit.pending.completeExceptionally(new IllegalStateException("disk on fire"));
        assertTrue(pendingWrites.isEmpty());
        assertEquals("Visit failed before any progress: disk on fire", completion.get().getMessage());
        assertTrue(visit.cancelled);
    }

    @Test
    void backendFailureAfterProgress_endsWithMessageAndContinuation() {
        StreamedVisitResponse stream = stream(Optional.empty());
        stream.iterate();
        completeWrite();
        visit.answerAtOnce = false;
        completeWrite();
        visit.pending.completeExceptionally(new IllegalStateException("disk on fire"));
        completeWrite();
        Map<String, Object> body = JsonTree.object(written.toString(StandardCharsets.UTF_8));
        assertEquals("disk on fire", body.get("message"));
        assertTrue(body.containsKey("continuation"));
        assertTrue(completed);
    }

    @Test
    void expiryWhileTheBackendReads_endsWithTheLastContinuation() {
        StreamedVisitResponse stream = stream(Optional.empty());
        stream.iterate();
        completeWrite();                 // pulls and writes the first chunk
        visit.answerAtOnce = false;
        completeWrite();                 // pulls again; that read stays pending
        String token = visit.batch(0).continuation().orElseThrow().encoded();
        stream.expire();
        assertEquals(1, pendingWrites.size()); // the epilogue
        completeWrite();
        assertTrue(completed);
        assertTrue(visit.cancelled);
        Map<String, Object> body = JsonTree.object(written.toString(StandardCharsets.UTF_8));
        assertEquals((long) StreamedVisitResponse.FIRST_PULL, body.get("documentCount"));
        assertEquals(token, body.get("continuation"));
    }

    @Test
    void expiryBeforeAnyContinuation_waitsForTheBatchBeingRead() {
        visit.answerAtOnce = false;
        StreamedVisitResponse stream = stream(Optional.empty());
        stream.iterate();
        completeWrite();
        stream.expire();
        assertTrue(pendingWrites.isEmpty()); // nothing to resume from yet, so the read is not dropped
        visit.pending.complete(visit.batch(2));
        assertEquals(1, pendingWrites.size());
        completeWrite();
        Map<String, Object> body = JsonTree.object(written.toString(StandardCharsets.UTF_8));
        assertEquals(2L, body.get("documentCount"));
        assertTrue(body.containsKey("continuation"));
        assertNull(completion.get());
        assertTrue(completed);
    }

}
