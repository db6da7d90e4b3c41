package io.sluice.content;

import java.util.ArrayList;
import java.util.List;

/**
 * Lets a thread that answers many operations at once (an engine completing a batch of writes, or a connection's round
 * of reads whose requests are answered as they are read) have each connection's responses leave in one socket write
 * instead of one write each. Within {@link #run}, a connection's end point that
 * supports it hands its socket write to {@link #defer} instead of making it; the writes run, in order, when the task
 * ends. Until then the connection's HTTP/2 flusher waits for that first write, so the responses answered after it on
 * the same connection queue up behind it and leave together, in one write (one TLS record) per connection, when it
 * completes.
 *
 * <p>Only for tasks that never wait for their own writes (nothing here blocks on a response being sent): a deferred
 * write happens when the task returns. Other threads' writes to a connection with a deferred write wait for it, at
 * most for the rest of the task. Nested calls run within the outer one.
 */
public final class CoalescedWrites {

    /**
     * The writes deferred on this thread, null outside {@link #run}. Left null rather than removed: removing a thread
     * local clears a reference, a call into the VM that JFR found at ~1.7% of the embedded store threads' samples in a
     * feed (bench/store.sh), where each completed group of writes runs one task.
     */
    private static final ThreadLocal<List<Runnable>> DEFERRED = new ThreadLocal<>();

    private CoalescedWrites() { }

    /**
     * Runs {@code task}, deferring the writes {@link #defer}red meanwhile on this thread to its end (also when it
     * throws). A write that throws does not keep the others from starting; the first such exception is thrown once all
     * have started (added as suppressed to the task's own, if the task threw). End points pass writes that report
     * failures to their callbacks instead of throwing.
     */
    public static void run(Runnable task) {
        if (DEFERRED.get() != null) {
            task.run();
            return;
        }
        List<Runnable> deferred = new ArrayList<>();
        DEFERRED.set(deferred);
        try {
            task.run();
        } catch (RuntimeException | Error e) {
            DEFERRED.set(null);
            try {
                writeAll(deferred);
            } catch (RuntimeException writeFailure) {
                e.addSuppressed(writeFailure);
            }
            throw e;
        }
        DEFERRED.set(null); // the deferred writes, and whatever their completions write next, go out at once
        writeAll(deferred);
    }

    /** Starts every write, even after one throws: a write never started would leave its connection waiting forever. */
    private static void writeAll(List<Runnable> writes) {
        RuntimeException first = null;
        for (Runnable write : writes) {
            try {
                write.run();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /**
     * Defers {@code write} to the end of the task this thread is {@link #run}ning, if any.
     *
     * @return whether it was deferred; if not, the caller writes now
     */
    public static boolean defer(Runnable write) {
        List<Runnable> deferred = DEFERRED.get();
        if (deferred == null) {
            return false;
        }
        deferred.add(write);
        return true;
    }

    /** Whether this thread is running a task whose writes are deferred. */
    public static boolean active() {
        return DEFERRED.get() != null;
    }

}
