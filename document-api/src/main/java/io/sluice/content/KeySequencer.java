package io.sluice.content;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Runs asynchronous tasks so that tasks with equal keys run one after another, in the order they were submitted,
 * each starting only once the previous one's future has completed; tasks with different keys run independently.
 * Only keys with a task in flight take memory, and there is no global lock: each submission is one map update.
 *
 * <p>This makes a read-modify-write on one document atomic even when its write completes later, on another thread
 * (a group commit, a driver's callback), without holding any thread while it waits. Every engine orders its
 * operations per document with it, through {@link OperationSequencer}.
 */
public final class KeySequencer {

    private final ConcurrentHashMap<Object, CompletableFuture<Void>> tails = new ConcurrentHashMap<>();

    /**
     * Starts {@code task} once every earlier task with an equal key has completed, and completes with its result.
     * The task is started on the thread that completes its predecessor (or the caller's), so it must only hand work
     * off, never block. A task that throws, or returns null, completes the result exceptionally.
     */
    public <T> CompletableFuture<T> run(Object key, Supplier<CompletableFuture<T>> task) {
        return run(key, waited -> task.get());
    }

    /** A task told whether it waited for an earlier one with its key, or started at once, within {@link #run}. */
    @FunctionalInterface
    public interface Turn<T> {
        CompletableFuture<T> start(boolean waited);
    }

    /** {@link #run(Object, Supplier)} for a task that wants to know whether it had to wait for its turn. */
    public <T> CompletableFuture<T> run(Object key, Turn<T> task) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        CompletableFuture<T> result = new CompletableFuture<>();
        CompletableFuture<Void> previous = tails.put(key, done);
        boolean waited = previous != null;
        Runnable start = () -> {
            CompletableFuture<T> running;
            try {
                running = task.start(waited);
            } catch (RuntimeException | Error e) {
                running = CompletableFuture.failedFuture(e);
            }
            if (running == null) running = CompletableFuture.failedFuture(new NullPointerException("The task returned no future"));
            running.whenComplete((value, failure) -> {
                tails.remove(key, done);
                done.complete(null);
                if (failure != null) {
                    result.completeExceptionally(failure);
                } else {
                    result.complete(value);
                }
            });
        };
        if (previous == null) {
            start.run();
        } else {
            previous.whenComplete((ignored, failure) -> startInTurn(start));
        }
        return result;
    }

    /** Tasks whose predecessor completed while this thread was already starting one, in order; null when not. */
    private static final ThreadLocal<ArrayDeque<Runnable>> turns = new ThreadLocal<>();

    /**
     * Runs {@code start} now, or, when this thread is already starting a task further up its stack, right after that
     * one returns. Tasks that complete at once would otherwise start their successors recursively, one stack frame
     * group per queued task: a few hundred operations queued on one document overflowed the stack, inside
     * CompletableFuture, which swallowed the error and left the key, and every later operation on it, waiting forever.
     */
    private static void startInTurn(Runnable start) {
        ArrayDeque<Runnable> queue = turns.get();
        if (queue != null) {
            queue.add(start);
            return;
        }
        queue = new ArrayDeque<>();
        turns.set(queue);
        Throwable first = null;
        try {
            for (Runnable next = start; next != null; next = queue.poll()) {
                try {
                    next.run();
                } catch (Throwable t) { // a start cannot fail but by the VM's errors; the tasks queued here still get theirs
                    if (first == null) first = t;
                    else first.addSuppressed(t);
                }
            }
        } finally {
            turns.remove();
        }
        if (first instanceof RuntimeException e) throw e;
        if (first instanceof Error e) throw e;
        if (first != null) throw new IllegalStateException("A queued task failed to start", first); // a checked one, thrown sneakily
    }

    /**
     * Whether no task with {@code key} is queued or running: then every task submitted earlier with it has completed
     * (its entry goes before its result completes). One lookup, taking no memory.
     */
    public boolean isIdle(Object key) {
        return !tails.containsKey(key);
    }

    /** Number of keys with a task queued or running. */
    public int activeKeys() {
        return tails.size();
    }

}
