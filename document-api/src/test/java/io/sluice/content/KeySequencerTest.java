package io.sluice.content;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeySequencerTest {

    private final KeySequencer sequencer = new KeySequencer();
    private final List<String> started = new ArrayList<>();

    private CompletableFuture<String> task(String name, CompletableFuture<String> completion) {
        started.add(name);
        return completion;
    }

    @Test
    void run_sameKey_startsNextOnlyAfterPreviousCompletes() {
        CompletableFuture<String> first = new CompletableFuture<>();
        sequencer.run("k", () -> task("first", first));
        sequencer.run("k", () -> task("second", CompletableFuture.completedFuture("2")));

        assertEquals(List.of("first"), started);
        first.complete("1");
        assertEquals(List.of("first", "second"), started);
    }

    @Test
    void run_turn_toldWhetherItWaited() {
        CompletableFuture<String> first = new CompletableFuture<>();
        sequencer.run("k", (boolean waited) -> task("first waited " + waited, first));
        sequencer.run("k", (boolean waited) -> task("second waited " + waited, CompletableFuture.completedFuture("2")));
        sequencer.run("other", (boolean waited) -> task("other waited " + waited, CompletableFuture.completedFuture("o")));
        first.complete("1");
        sequencer.run("k", (boolean waited) -> task("third waited " + waited, CompletableFuture.completedFuture("3")));

        assertEquals(List.of("first waited false", "other waited false", "second waited true", "third waited false"), started);
    }

    @Test
    void run_differentKeys_startsAtOnce() {
        sequencer.run("a", () -> task("a", new CompletableFuture<>()));
        sequencer.run("b", () -> task("b", new CompletableFuture<>()));

        assertEquals(List.of("a", "b"), started);
    }

    @Test
    void run_completesWithTaskResult() {
        CompletableFuture<String> result = sequencer.run("k", () -> CompletableFuture.completedFuture("done"));

        assertEquals("done", result.join());
    }

    @Test
    void run_afterFailedTask_startsNextAndReportsFailure() {
        CompletableFuture<String> failed = sequencer.run("k", () -> {
            throw new IllegalStateException("boom");
        });
        CompletableFuture<String> next = sequencer.run("k", () -> CompletableFuture.completedFuture("ok"));

        assertTrue(failed.isCompletedExceptionally());
        assertEquals("ok", next.join());
    }

    @Test
    void run_afterTaskCompletedExceptionally_startsNextAndReportsFailure() {
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> failed = sequencer.run("k", () -> first);
        CompletableFuture<String> next = sequencer.run("k", () -> CompletableFuture.completedFuture("ok"));

        first.completeExceptionally(new IllegalStateException("boom"));

        assertTrue(failed.isCompletedExceptionally());
        assertEquals("ok", next.join());
    }

    @Test
    void run_taskThrowingError_startsNextAndReportsFailure() {
        CompletableFuture<String> failed = sequencer.run("k", () -> {
            throw new StackOverflowError("deep");
        });
        CompletableFuture<String> next = sequencer.run("k", () -> CompletableFuture.completedFuture("ok"));

        assertTrue(failed.isCompletedExceptionally());
        assertEquals("ok", next.join());
    }

    @Test
    void run_taskReturningNoFuture_failsAndFreesTheKey() {
        CompletableFuture<String> first = new CompletableFuture<>();
        sequencer.run("k", () -> task("first", first));
        CompletableFuture<String> broken = sequencer.run("k", () -> null);
        CompletableFuture<String> next = sequencer.run("k", () -> task("next", CompletableFuture.completedFuture("ok")));

        first.complete("1");
        assertTrue(broken.isCompletedExceptionally());
        assertEquals("ok", next.join());
        assertEquals(0, sequencer.activeKeys());
    }

    @Test
    void run_allCompleted_keepsNoKeys() {
        CompletableFuture<String> pending = new CompletableFuture<>();
        sequencer.run("k", () -> pending);
        sequencer.run("k", () -> CompletableFuture.completedFuture("x"));
        assertEquals(1, sequencer.activeKeys());

        pending.complete("y");

        assertEquals(0, sequencer.activeKeys());
    }

    @Test
    void run_sameKeyQueuedBehindPending_doesNotCompleteEarly() {
        CompletableFuture<String> pending = new CompletableFuture<>();
        sequencer.run("k", () -> pending);

        CompletableFuture<String> queued = sequencer.run("k", () -> CompletableFuture.completedFuture("x"));

        assertFalse(queued.isDone());
    }

    @Test
    void run_manyQueuedTasksThatCompleteAtOnce_allRunInOrder_andTheKeyIsFreed() {
        // Started recursively, a few hundred of these overflowed the stack and left the key waiting forever.
        CompletableFuture<String> gate = new CompletableFuture<>();
        sequencer.run("k", () -> gate);
        List<Integer> order = new ArrayList<>();
        List<CompletableFuture<Integer>> results = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            int n = i;
            results.add(sequencer.run("k", () -> {
                order.add(n);
                return CompletableFuture.completedFuture(n);
            }));
        }
        gate.complete("open");

        assertTrue(results.stream().allMatch(result -> result.isDone() && ! result.isCompletedExceptionally()));
        assertEquals(20_000, order.size());
        for (int i = 0; i < order.size(); i++) assertEquals(i, order.get(i));
        assertEquals(0, sequencer.activeKeys());
        assertTrue(sequencer.run("k", () -> CompletableFuture.completedFuture("next")).isDone());
    }

}
