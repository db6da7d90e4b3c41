package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.RequestThrottlingException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.ConnectionInitException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.QueryConsistencyException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.sluice.content.ContentUnavailableException;
import io.sluice.content.Outcome;

import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;

/**
 * What a driver failure means for the client: the one place that turns Cassandra's exceptions into outcomes.
 *
 * <ul>
 *   <li>Timeouts (the driver's or a coordinator's, incl. an unknown CAS result) become TIMEOUT (504).</li>
 *   <li>Too few live replicas, no reachable node, every tried node failing, or a connection lost before an answer
 *       become UNAVAILABLE (503), which clients retry.</li>
 *   <li>An overloaded coordinator, the driver's own request throttle or a connection with too many requests in
 *       flight become OVERLOAD (429).</li>
 *   <li>Anything else is ERROR (500).</li>
 * </ul>
 *
 * <p>UNAVAILABLE and OVERLOAD promise the client that nothing was applied. So {@link #outcome} is only for failures
 * of reads, and of writes that {@linkplain #certainlyNotApplied certainly did not apply}; a write that may have
 * applied is resolved by reading it back (see {@link ConditionalWriter}), or reported as TIMEOUT.
 */
final class Failures {

    private Failures() { }

    /** The exception inside completion wrappers. */
    static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
               && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    /**
     * The outcome for a failed read, or a failed write that {@link #certainlyNotApplied} says did not apply, about
     * {@code what} (e.g. "put of 'id:...'"); its message names the cause.
     */
    static Outcome outcome(Throwable failure, Object what) {
        String detail = describe(failure);
        Throwable cause = unwrap(failure);
        if (cause instanceof WriteTimeoutException || cause instanceof ReadTimeoutException
            || cause instanceof CASWriteUnknownException || cause instanceof DriverTimeoutException) {
            return Outcome.timeout("Cassandra timed out on " + what + " (" + detail + ")");
        }
        if (cause instanceof UnavailableException || cause instanceof AllNodesFailedException
            || cause instanceof ClosedConnectionException || cause instanceof HeartbeatException
            || cause instanceof ConnectionInitException) {
            return Outcome.unavailable("Cassandra is unavailable for " + what + ", retry later (" + detail + ")");
        }
        if (cause instanceof OverloadedException || cause instanceof RequestThrottlingException
            || cause instanceof BusyConnectionException) {
            return Outcome.overload("Cassandra is overloaded, retry " + what + " later (" + detail + ")");
        }
        if (cause instanceof QueryConsistencyException) {
            return Outcome.timeout("Cassandra could not reach the consistency level for " + what + " (" + detail
                                   + ")");
        }
        return Outcome.error("Cassandra failed on " + what + " (" + detail + ")");
    }

    /**
     * The outcome when the read that starts a write about {@code what} failed. Nothing of the write is applied at that
     * point (an earlier attempt either lost its race or was checked and found not applied), so a timeout is a
     * retryable UNAVAILABLE rather than the TIMEOUT a client must take as "maybe applied"; otherwise as
     * {@link #outcome}.
     */
    static Outcome beforeWrite(Throwable failure, Object what) {
        Outcome outcome = outcome(failure, what);
        if (outcome.status() != Outcome.Status.TIMEOUT) {
            return outcome;
        }
        return Outcome.unavailable("Cassandra did not answer the read that starts " + what + ", so it was not applied;"
                                   + " retry later (" + describe(failure) + ")");
    }

    /** "ExceptionClass: message" of the exception inside completion wrappers. */
    static String describe(Throwable failure) {
        Throwable cause = unwrap(failure);
        return cause.getClass().getSimpleName() + ": " + cause.getMessage();
    }

    /**
     * What a visit's {@code next} fails with after a failed read about {@code what}: a
     * {@link ContentUnavailableException} when {@link #outcome} would say UNAVAILABLE (so the client gets a retryable
     * 503), else the failure itself.
     */
    static CompletionException visitFailure(Throwable failure, Object what) {
        Throwable cause = unwrap(failure);
        Outcome outcome = outcome(cause, what);
        if (outcome.status() == Outcome.Status.UNAVAILABLE) {
            return new CompletionException(new ContentUnavailableException(outcome.message(), cause));
        }
        return failure instanceof CompletionException ? (CompletionException) failure
                                                      : new CompletionException(failure);
    }

    /**
     * Whether a failed conditional write certainly did not apply: it was refused before Paxos started, so it is safe
     * to report or retry without checking. Otherwise the write may or may not have applied.
     */
    static boolean certainlyNotApplied(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof AllNodesFailedException && !(cause instanceof NoNodeAvailableException)) {
            // The driver's retry policy tries the next node after Unavailable, so refusals usually arrive wrapped.
            List<Throwable> errors = ((AllNodesFailedException) cause).getAllErrors().values().stream()
                                                                      .flatMap(List::stream)
                                                                      .collect(Collectors.toList());
            return !errors.isEmpty() && errors.stream().allMatch(Failures::certainlyNotApplied);
        }
        return cause instanceof UnavailableException || cause instanceof OverloadedException
               || cause instanceof RequestThrottlingException || cause instanceof NoNodeAvailableException;
    }

}
