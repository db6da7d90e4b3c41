package io.sluice.content;

import io.sluice.content.Outcome.Status;
import io.sluice.document.InvalidDocumentException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OperationSequencerTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant DEADLINE = START.plusSeconds(10);

    private final ManualClock clock = new ManualClock(START);
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<String> started = new ArrayList<>();
    private final OperationSequencer sequencer = new OperationSequencer(
            "test", clock, 2, closed::get, (what, failure) -> Outcome.error(what + " broke: " + failure.getMessage()));

    /** Runs a put of {@code key}, which records {@code name} when it starts. */
    private CompletableFuture<Outcome> run(String key, String name, CompletableFuture<Outcome> result) {
        return sequencer.run(key, new OperationName("put", key), DEADLINE, () -> {
            started.add(name);
            return result;
        });
    }

    @Test
    void run_sameKey_inIssueOrder_otherKeyAtOnce() {
        CompletableFuture<Outcome> first = new CompletableFuture<>();
        run("a", "first", first);
        run("b", "other", new CompletableFuture<>());
        sequencer.sequence("a", () -> {
            started.add("second");
            return CompletableFuture.completedFuture(Outcome.missing());
        });
        assertEquals(List.of("first", "other"), started);
        first.complete(Outcome.missing());
        assertEquals(List.of("first", "other", "second"), started);
    }

    @Test
    void run_beyondMaxPending_isOverloadAtOnce_andAdmitsAgainWhenOneCompletes() {
        CompletableFuture<Outcome> first = new CompletableFuture<>();
        run("a", "put of 'a'", first);
        run("b", "put of 'b'", new CompletableFuture<>());
        Outcome third = run("c", "put of 'c'", new CompletableFuture<>()).join();
        assertEquals(Outcome.overload("Rejecting put of 'c': 2 operations already pending"), third);
        assertEquals(2, sequencer.pending());

        first.complete(Outcome.missing());
        assertEquals(1, sequencer.pending());
        assertFalse(run("c", "put of 'c'", new CompletableFuture<>()).isDone());
    }

    @Test
    void run_pastDeadline_isTimeout_andNeverStarts() {
        clock.advance(Duration.ofSeconds(11));
        Outcome outcome = run("a", "put of 'a'", new CompletableFuture<>()).join();
        assertEquals(Outcome.timeout("put of 'a' timed out: deadline " + DEADLINE + " passed"), outcome);
        assertEquals(List.of(), started);
    }

    @Test
    void run_deadlinePassingWhileQueued_isTimeoutWhenItsTurnComes() {
        CompletableFuture<Outcome> first = new CompletableFuture<>();
        run("a", "first", first);
        CompletableFuture<Outcome> second = run("a", "second", new CompletableFuture<>());
        clock.advance(Duration.ofSeconds(11));
        first.complete(Outcome.missing());
        assertEquals(Status.TIMEOUT, second.join().status());
        assertEquals(List.of("first"), started);
        assertEquals(0, sequencer.pending());
    }

    @Test
    void run_closed_isErrorNamingTheEngine() {
        closed.set(true);
        assertEquals(Outcome.error("The test content backend is closed"),
                     run("a", "put of 'a'", new CompletableFuture<>()).join());
    }

    @Test
    void run_documentException_isErrorWithItsMessage() {
        CompletableFuture<Outcome> outcome = sequencer.run("a", new OperationName("update", "a"), DEADLINE, () -> {
            throw new InvalidDocumentException("Field 'genre' is not defined in document type 'music'");
        });
        assertEquals(Outcome.error("Field 'genre' is not defined in document type 'music'"), outcome.join());
    }

    @Test
    void run_otherFailure_unwrapped_goesToTheEnginesMapping() {
        CompletableFuture<Outcome> failing = new CompletableFuture<>();
        CompletableFuture<Outcome> outcome = run("a", "put of 'a'", failing);
        failing.completeExceptionally(new CompletionException(new IllegalStateException("disk gone")));
        assertEquals(Outcome.error("put of 'a' broke: disk gone"), outcome.join());
        assertEquals(0, sequencer.pending());
    }

    @Test
    void sequence_skipsAdmission_butKeepsOrder() {
        closed.set(false);
        CompletableFuture<Outcome> first = new CompletableFuture<>();
        run("a", "first", first);
        run("b", "second", new CompletableFuture<>());
        CompletableFuture<String> housekeeping = sequencer.sequence("a", () -> {
            started.add("housekeeping");
            return CompletableFuture.completedFuture("done");
        });
        assertFalse(housekeeping.isDone(), "waits for the operation on its key, though 2 are pending");
        first.complete(Outcome.missing());
        assertEquals("done", housekeeping.join());
        assertTrue(started.contains("housekeeping"));
    }

    @Test
    void runNow_carriesTheOperationOut_andCountsItPendingWhileItRuns() {
        int[] pendingInside = new int[1];
        Outcome outcome = sequencer.runNow(new OperationName("put", "a"), DEADLINE, () -> {
            pendingInside[0] = sequencer.pending();
            return Outcome.missing();
        });
        assertEquals(Outcome.missing(), outcome);
        assertEquals(1, pendingInside[0]);
        assertEquals(0, sequencer.pending());
    }

    @Test
    void runNow_admitsAsRunDoes_closedPastDeadlineOrBeyondMaxPending_withoutStarting() {
        assertAdmitsAsRunDoes("put", sequencer::runNow);
    }

    /** A call on this thread at once, e.g. runNow, or readIfIdle of an idle key. */
    private interface CallHere {
        Outcome call(OperationName what, Instant deadline, Supplier<Outcome> operation);
    }

    /**
     * {@code call} refuses an operation of type {@code type} on 'c' as {@link OperationSequencer#run} does: beyond the
     * pending bound (two others in flight), past its deadline, once closed; and starts none of them.
     */
    private void assertAdmitsAsRunDoes(String type, CallHere call) {
        List<Outcome> inside = new ArrayList<>();
        OperationName what = new OperationName(type, "c");
        run("a", "first", new CompletableFuture<>());
        run("b", "second", new CompletableFuture<>());
        assertEquals(Outcome.overload("Rejecting " + type + " of 'c': 2 operations already pending"),
                     call.call(what, DEADLINE, () -> record(inside)));
        assertEquals(2, sequencer.pending());

        clock.advance(Duration.ofSeconds(11));
        assertEquals(Outcome.timeout(type + " of 'c' timed out: deadline " + DEADLINE + " passed"),
                     call.call(what, DEADLINE, () -> record(inside)));
        closed.set(true);
        assertEquals(Outcome.error("The test content backend is closed"), call.call(what, DEADLINE, () -> record(inside)));
        assertEquals(List.of(), inside);
    }

    private static Outcome record(List<Outcome> outcomes) {
        outcomes.add(Outcome.missing());
        return Outcome.missing();
    }

    @Test
    void runNow_failures_becomeOutcomes_asRunMapsThem() {
        OperationName update = new OperationName("update", "a");
        assertEquals(Outcome.error("Field 'genre' is not defined in document type 'music'"),
                     sequencer.runNow(update, DEADLINE, () -> {
                         throw new InvalidDocumentException("Field 'genre' is not defined in document type 'music'");
                     }));
        assertEquals(Outcome.error("update of 'a' broke: disk gone"),
                     sequencer.runNow(update, DEADLINE, () -> { throw new IllegalStateException("disk gone"); }));
        assertEquals(Outcome.error("update of 'a' broke: The operation returned no outcome"),
                     sequencer.runNow(update, DEADLINE, () -> null));
        assertEquals(0, sequencer.pending());
    }

    @Test
    void readIfIdle_keyInFlight_isNull_withoutStarting_andAtOnceAgainOnceItCompletes() {
        CompletableFuture<Outcome> put = new CompletableFuture<>();
        run("a", "put", put);
        List<Outcome> inside = new ArrayList<>();
        assertNull(sequencer.readIfIdle("a", new OperationName("get", "a"), DEADLINE, () -> record(inside)));
        assertEquals(List.of(), inside);

        int[] pendingInside = new int[1];
        Outcome other = sequencer.readIfIdle("b", new OperationName("get", "b"), DEADLINE, () -> {
            pendingInside[0] = sequencer.pending();
            return Outcome.missing();
        });
        assertEquals(Outcome.missing(), other);
        assertEquals(2, pendingInside[0]); // the put in flight and this read
        assertEquals(1, sequencer.pending());

        put.complete(Outcome.missing());
        assertEquals(Outcome.missing(), sequencer.readIfIdle("a", new OperationName("get", "a"), DEADLINE,
                                                             () -> record(inside)));
        assertEquals(1, inside.size());
        assertEquals(0, sequencer.pending());
    }

    @Test
    void readIfIdle_admitsAsRunDoes_andMapsFailuresAsRunDoes() {
        assertAdmitsAsRunDoes("get", (what, deadline, attempt) -> sequencer.readIfIdle("c", what, deadline, attempt));

        OperationSequencer open = new OperationSequencer("test", clock, 2, () -> false,
                                                         (what, failure) -> Outcome.error(what + " broke: " + failure.getMessage()));
        assertEquals(Outcome.error("get of 'c' broke: disk"),
                     open.readIfIdle("c", new OperationName("get", "c"), Instant.MAX, () -> {
                         throw new CompletionException(new IllegalStateException("disk"));
                     }));
        assertNull(open.readIfIdle("c", new OperationName("get", "c"), Instant.MAX, () -> null));
        assertEquals(0, open.pending());
    }

    @Test
    void constructor_nonPositiveMaxPending_isRefused() {
        assertThrows(IllegalArgumentException.class,
                     () -> new OperationSequencer("test", clock, 0, closed::get, (what, failure) -> null));
    }

}
