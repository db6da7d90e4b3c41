package io.sluice.content.cassandra;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * How the backend waits between tries without holding a thread: the returned future completes after the pause.
 * Injected, so that tests of retries and checks run at once on a manual clock instead of waiting on real time.
 */
@FunctionalInterface
interface Pauses {

    /** Completes once {@code pause} has passed. */
    CompletableFuture<Void> after(Duration pause);

    /** Real pauses, after which work continues on {@code executor}. */
    static Pauses on(Executor executor) {
        return pause -> CompletableFuture.runAsync(() -> { },
                                                   CompletableFuture.delayedExecutor(pause.toNanos(),
                                                                                     TimeUnit.NANOSECONDS, executor));
    }

}
