package io.sluice.container;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Where a {@link VirtualMachineError} (above all {@link OutOfMemoryError}; not {@link StackOverflowError}) caught by request handling goes. After one,
 * no invariant of the process can be trusted (a lock, a queue slot, a half-applied update), so limping on is worse than
 * stopping: the process's {@code main} installs an action that takes the server out of rotation and exits, for a
 * supervisor to restart it. Until then (in tests, say) the error is only logged.
 */
public final class FatalErrors {

    private static final Logger log = LoggerFactory.getLogger(FatalErrors.class);

    private static volatile Consumer<VirtualMachineError> action = error -> { };

    private FatalErrors() { }

    /** Runs {@code onFatal} for every fatal error reported from now on, instead of the previous action. */
    public static void onFatal(Consumer<VirtualMachineError> onFatal) {
        action = Objects.requireNonNull(onFatal, "onFatal");
    }

    /**
     * Reports {@code failure} if it is fatal; returns whether it was. Logs before anything else: after an
     * {@link OutOfMemoryError} the action may not get far.
     */
    public static boolean report(Throwable failure) {
        // A stack overflow unwinds cleanly and is the request's own problem (deeply nested input), not the process's.
        if ( ! (failure instanceof VirtualMachineError) || failure instanceof StackOverflowError)
            return false;
        try {
            log.error("Fatal error in request handling: {}", failure.toString(), failure);
        }
        finally {
            action.accept((VirtualMachineError) failure);
        }
        return true;
    }

}
