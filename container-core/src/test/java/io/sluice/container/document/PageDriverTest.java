package io.sluice.container.document;

import io.sluice.container.ManualClock;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.Slice;
import io.sluice.content.BucketSpace;
import io.sluice.content.ContentUnavailableException;
import io.sluice.content.DocumentKey;
import io.sluice.content.ProgressToken;
import io.sluice.content.Visit;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a page of a visit is pulled and when it ends, with scripted visits and sinks. */
class PageDriverTest {

    private static final DocumentType MUSIC = HandlerFixture.types().get("music");

    private final ManualClock clock = HandlerFixture.newClock();
    private final DelayedTasks scheduler = new DelayedTasks();
    private final MemoryBudget memory = MemoryBudget.of(64L << 20);

    /** A visit answering synchronously with the batches {@code script} gives for pull 0, 1, ...; counts cancels. */
    private static final class ScriptedVisit implements Visit {
        final IntFunction<VisitBatch> script;
        final List<Long> maxBytes = new ArrayList<>();
        int pulls = 0;
        boolean cancelled = false;

        ScriptedVisit(IntFunction<VisitBatch> script) {
            this.script = script;
        }

        @Override
        public CompletableFuture<VisitBatch> next(int maxEntries, long maxBytes) {
            this.maxBytes.add(maxBytes);
            return CompletableFuture.completedFuture(script.apply(pulls++));
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    /** Collects entries; satisfied at {@code wanted}. */
    private static class CountingSink implements PageDriver.Sink {
        final int wanted;
        final List<VisitEntry> entries = new ArrayList<>();

        CountingSink(int wanted) {
            this.wanted = wanted;
        }

        @Override public int nextBatchSize() { return 10; }
        @Override public CompletableFuture<Optional<String>> accept(VisitBatch batch) {
            entries.addAll(batch.entries());
            return CompletableFuture.completedFuture(Optional.empty());
        }
        @Override public boolean satisfied() { return entries.size() >= wanted; }
    }

    private static ProgressToken token(long position) {
        return ProgressToken.of(8, Slice.ALL, BucketSpace.DEFAULT, DocumentKey.bucketStart(position << 40));
    }

    private static VisitBatch batch(int documents, long position, boolean boundary) {
        List<VisitEntry> entries = new ArrayList<>();
        for (int i = 0; i < documents; i++)
            entries.add(VisitEntry.put(Document.of(MUSIC, DocumentId.of("id:ns:music::" + position + "-" + i)), 1));
        return new VisitBatch(entries, Optional.of(token(position)), boundary, 50);
    }

    private static VisitBatch finished() {
        return new VisitBatch(List.of(), Optional.empty(), true, 100);
    }

    private PageDriver.End run(Visit visit, PageDriver.Sink sink) {
        CompletableFuture<PageDriver.End> result = PageDriver.start(visit, sink, Optional.empty(), clock,
                                                                    clock.instant().plus(Duration.ofSeconds(10)), scheduler, memory).result();
        assertTrue(result.isDone());
        return result.getNow(null);
    }

    private static final long PULL_RESERVATION = PageDriver.HELD_PER_STORED_BYTE * PageDriver.PULL_BYTES;

    /** A sink that keeps 1,000 bytes per entry it took. */
    private static class KeepingSink extends CountingSink {
        KeepingSink(int wanted) {
            super(wanted);
        }

        @Override public long heldBytes() { return 1000L * entries.size(); }
    }

    @Test
    void memory_reservedPerPull_andWhatTheSinkKeepsUntilReleased() {
        ScriptedVisit visit = new ScriptedVisit(pull -> pull < 2 ? batch(3, pull, true) : finished());
        KeepingSink sink = new KeepingSink(100);
        PageDriver driver = PageDriver.start(visit, sink, Optional.empty(), clock, clock.instant().plusSeconds(10),
                                             scheduler, memory);
        assertTrue(driver.result().isDone());
        assertEquals(List.of(PageDriver.PULL_BYTES, PageDriver.PULL_BYTES, PageDriver.PULL_BYTES), visit.maxBytes);
        assertEquals(6000, memory.reserved()); // the pulls' reservations are back; the sink's content is not
        driver.releaseMemory();
        driver.releaseMemory();
        assertEquals(0, memory.reserved());
    }

    @Test
    void noRoomAfterABatch_endsThePageWithItsContinuation() {
        MemoryBudget onePull = MemoryBudget.of(PULL_RESERVATION + 1);
        onePull.force(1); // another visit's
        ScriptedVisit visit = new ScriptedVisit(pull -> batch(3, pull, false));
        PageDriver driver = PageDriver.start(visit, new KeepingSink(100), Optional.empty(), clock,
                                             clock.instant().plusSeconds(10), scheduler, onePull);
        assertEquals(new PageDriver.End(Optional.of(token(0)), 1, Optional.empty(), false), driver.result().getNow(null));
        assertEquals(1, visit.pulls);
        driver.releaseMemory();
        assertEquals(1, onePull.reserved());
    }

    @Test
    void noRoomBeforeAnyBatch_waitsUntilSomeIsReleased() {
        MemoryBudget onePull = MemoryBudget.of(PULL_RESERVATION);
        onePull.force(1); // another visit's
        ScriptedVisit visit = new ScriptedVisit(pull -> pull == 0 ? batch(2, 0, true) : finished());
        CountingSink sink = new CountingSink(100);
        PageDriver driver = PageDriver.start(visit, sink, Optional.empty(), clock, clock.instant().plusSeconds(10),
                                             scheduler, onePull);
        assertFalse(driver.result().isDone());
        assertEquals(0, visit.pulls);
        onePull.release(1);
        assertTrue(driver.result().isDone());
        assertEquals(2, sink.entries.size());
        assertEquals(0, onePull.reserved());
    }

    @Test
    void noRoomUntilTimeIsUp_endsAsExpired() {
        MemoryBudget onePull = MemoryBudget.of(PULL_RESERVATION);
        onePull.force(1);
        PageDriver driver = PageDriver.start(new ScriptedVisit(pull -> finished()), new CountingSink(1),
                                             Optional.of(token(3)), clock, clock.instant().plusSeconds(10), scheduler,
                                             onePull);
        assertEquals(1, scheduler.fire(delay -> delay.equals(Duration.ofSeconds(10))));
        assertEquals(new PageDriver.End(Optional.of(token(3)), 0, Optional.empty(), true), driver.result().getNow(null));
        onePull.release(1); // the waiter left behind does nothing
        assertEquals(0, onePull.reserved());
    }

    @Test
    void batchBlockedByALargeDocument_isAskedAgainWithRoomForIt() {
        long large = 50L << 20;
        ScriptedVisit visit = new ScriptedVisit(pull -> switch (pull) {
            case 0 -> new VisitBatch(List.of(), Optional.of(token(0)), false, 10, large);
            case 1 -> batch(1, 1, false);
            default -> finished();
        });
        MemoryBudget small = MemoryBudget.of(PULL_RESERVATION);
        CountingSink sink = new CountingSink(100);
        PageDriver driver = PageDriver.start(visit, sink, Optional.empty(), clock, clock.instant().plusSeconds(10),
                                             scheduler, small);
        assertTrue(driver.result().isDone());
        assertEquals(List.of(PageDriver.PULL_BYTES, large, PageDriver.PULL_BYTES), visit.maxBytes);
        assertEquals(1, sink.entries.size());
        assertEquals(0, small.reserved()); // the oversized reservation was granted alone, and returned
    }

    @Test
    void manyEmptySynchronousBatches_doNotGrowTheStack() {
        ScriptedVisit visit = new ScriptedVisit(pull -> pull < 200_000 ? batch(0, pull, true) : finished());
        PageDriver.End end = run(visit, new CountingSink(1));
        assertEquals(new PageDriver.End(Optional.empty(), 200_001, Optional.empty(), false), end);
    }

    @Test
    void enoughDocuments_endsOnlyAtABucketBoundary() {
        ScriptedVisit visit = new ScriptedVisit(pull -> batch(3, pull, pull == 2));
        CountingSink sink = new CountingSink(1);
        PageDriver.End end = run(visit, sink);
        assertEquals(9, sink.entries.size());
        assertEquals(Optional.of(token(2)), end.continuation());
        assertTrue(visit.cancelled);
    }

    @Test
    void fullSink_endsInsideABucket() {
        ScriptedVisit visit = new ScriptedVisit(pull -> batch(3, pull, false));
        CountingSink full = new CountingSink(1) {
            @Override public boolean full() { return entries.size() >= 6; }
        };
        PageDriver.End end = run(visit, full);
        assertEquals(new PageDriver.End(Optional.of(token(1)), 2, Optional.empty(), false), end);
    }

    @Test
    void timeUp_endsAfterTheBatchInHandWithItsContinuation() {
        ScriptedVisit visit = new ScriptedVisit(pull -> {
            clock.advance(Duration.ofSeconds(6));
            return batch(1, pull, true);
        });
        PageDriver.End end = run(visit, new CountingSink(100));
        assertEquals(new PageDriver.End(Optional.of(token(1)), 2, Optional.empty(), true), end);
    }

    @Test
    void contentUnavailable_endsThePageAsUnavailableAfterTheBatchesTaken() {
        ScriptedVisit visit = new ScriptedVisit(pull -> {
            if (pull == 1)
                throw new ContentUnavailableException("no live replicas", null);
            return batch(1, pull, true);
        });
        PageDriver.End end = run(visit, new CountingSink(100));
        assertEquals(new PageDriver.End(Optional.of(token(0)), 1, Optional.of("no live replicas"), false, true), end);
    }

    @Test
    void otherBackendFailure_isNotUnavailable() {
        ScriptedVisit visit = new ScriptedVisit(pull -> {
            throw new IllegalStateException("disk on fire");
        });
        PageDriver.End end = run(visit, new CountingSink(100));
        assertEquals(Optional.of("disk on fire"), end.failure());
        assertFalse(end.unavailable());
    }

    @Test
    void sinkFailure_endsThePageWithItsMessage() {
        ScriptedVisit visit = new ScriptedVisit(pull -> batch(1, pull, true));
        PageDriver.Sink failing = new CountingSink(100) {
            @Override public CompletableFuture<Optional<String>> accept(VisitBatch batch) {
                return CompletableFuture.completedFuture(Optional.of("disk full"));
            }
        };
        PageDriver.End end = run(visit, failing);
        assertEquals(Optional.of("disk full"), end.failure());
        assertEquals(1, visit.pulls);
    }

    @Test
    void expiryWhilePulling_dropsThatBatch() {
        CompletableFuture<VisitBatch> never = new CompletableFuture<>();
        Visit visit = new Visit() {
            @Override public CompletableFuture<VisitBatch> next(int maxEntries, long maxBytes) { return never; }
            @Override public void cancel() { }
        };
        CompletableFuture<PageDriver.End> result = PageDriver.start(visit, new CountingSink(1), Optional.of(token(7)), clock,
                                                                    clock.instant().plus(Duration.ofSeconds(10)), scheduler, memory).result();
        assertFalse(result.isDone());
        assertEquals(1, scheduler.fire(delay -> delay.equals(Duration.ofSeconds(10))));
        assertEquals(new PageDriver.End(Optional.of(token(7)), 0, Optional.empty(), true), result.getNow(null));
        never.complete(batch(5, 8, true)); // too late: ignored
        assertEquals(new PageDriver.End(Optional.of(token(7)), 0, Optional.empty(), true), result.getNow(null));
    }

}
