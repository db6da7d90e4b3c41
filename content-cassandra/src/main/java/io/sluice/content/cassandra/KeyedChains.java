package io.sluice.content.cassandra;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Runs asynchronous tasks one after the other per key, in the order they were added, and tasks of different keys
 * independently: a task starts when the previous task of its key has completed (however it completed). Holds an
 * entry only while a key has tasks in flight. Thread-safe; never blocks.
 */
final class KeyedChains<K> {

    private final Map<K, CompletableFuture<?>> tails = new ConcurrentHashMap<>();

    /** Starts {@code task} after every task added earlier for {@code key}; its result completes the returned future. */
    <T> CompletableFuture<T> add(K key, Supplier<CompletableFuture<T>> task) {
        CompletableFuture<T> result = new CompletableFuture<>();
        CompletableFuture<?> previous = tails.put(key, result);
        Runnable start = () -> {
            CompletableFuture<T> started;
            try {
                started = task.get();
            } catch (RuntimeException e) {
                started = CompletableFuture.failedFuture(e);
            }
            started.whenComplete((value, failure) -> {
                tails.remove(key, result);
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
            previous.whenComplete((value, failure) -> start.run());
        }
        return result;
    }

    /** Keys with tasks in flight. */
    int size() {
        return tails.size();
    }

}
