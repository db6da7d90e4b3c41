package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.RequestThrottlingException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import io.sluice.content.ContentUnavailableException;
import io.sluice.content.Outcome;
import io.sluice.content.Outcome.Status;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FailuresTest {

    private static final ConsistencyLevel QUORUM = DefaultConsistencyLevel.QUORUM;

    @Test
    void writeTimeout_isTimeoutAndMaybeApplied() {
        WriteTimeoutException timeout = new WriteTimeoutException(null, QUORUM, 1, 2, WriteType.CAS);
        assertEquals(Status.TIMEOUT, Failures.outcome(new CompletionException(timeout), "put").status());
        assertFalse(Failures.certainlyNotApplied(timeout));
    }

    @Test
    void timeoutOfTheReadBeforeAWrite_isUnavailable_becauseNothingWasApplied() {
        ReadTimeoutException timeout = new ReadTimeoutException(null, QUORUM, 1, 2, false);
        Outcome outcome = Failures.beforeWrite(new CompletionException(timeout), "put of 'id:ns:t::1'");
        assertEquals(Status.UNAVAILABLE, outcome.status());
        assertEquals("Cassandra did not answer the read that starts put of 'id:ns:t::1', so it was not applied; retry "
                     + "later (ReadTimeoutException: " + timeout.getMessage() + ")", outcome.message());
        assertEquals(Status.UNAVAILABLE, Failures.beforeWrite(new DriverTimeoutException("slow"), "put").status());
        assertEquals(Status.OVERLOAD, Failures.beforeWrite(new OverloadedException(null), "put").status());
        assertEquals(Status.ERROR, Failures.beforeWrite(new IllegalStateException("bug"), "put").status());
    }

    @Test
    void driverTimeout_isTimeout() {
        assertEquals(Status.TIMEOUT, Failures.outcome(new DriverTimeoutException("slow"), "get").status());
    }

    @Test
    void unavailable_isUnavailableAndNotApplied() {
        UnavailableException unavailable = new UnavailableException(null, QUORUM, 2, 1);
        Outcome outcome = Failures.outcome(unavailable, "put of 'id:ns:t::1'");
        assertEquals(Status.UNAVAILABLE, outcome.status());
        assertEquals("Cassandra is unavailable for put of 'id:ns:t::1', retry later (UnavailableException: "
                     + unavailable.getMessage() + ")", outcome.message());
        assertTrue(Failures.certainlyNotApplied(unavailable));
    }

    @Test
    void noNodeAvailable_isUnavailableAndNotApplied() {
        NoNodeAvailableException none = new NoNodeAvailableException();
        assertEquals(Status.UNAVAILABLE, Failures.outcome(none, "put").status());
        assertTrue(Failures.certainlyNotApplied(none));
    }

    @Test
    void allNodesFailed_isUnavailableButMaybeApplied() {
        AllNodesFailedException failed = new AllNodesFailed();
        assertEquals(Status.UNAVAILABLE, Failures.outcome(new CompletionException(failed), "get").status());
        assertFalse(Failures.certainlyNotApplied(failed));
    }

    @Test
    void allNodesFailed_onlyRefusingBeforePaxos_isNotApplied() {
        AllNodesFailedException failed = new AllNodesFailed(new UnavailableException(null, QUORUM, 2, 1),
                                                            new OverloadedException(null));
        assertTrue(Failures.certainlyNotApplied(failed));
    }

    @Test
    void allNodesFailed_oneMaybeApplied_isMaybeApplied() {
        AllNodesFailedException failed = new AllNodesFailed(new UnavailableException(null, QUORUM, 2, 1),
                                                            new ClosedConnectionException("reset"));
        assertFalse(Failures.certainlyNotApplied(failed));
    }

    @Test
    void closedConnection_isUnavailableButMaybeApplied() {
        ClosedConnectionException closed = new ClosedConnectionException("node went away");
        assertEquals(Status.UNAVAILABLE, Failures.outcome(closed, "get").status());
        assertFalse(Failures.certainlyNotApplied(closed));
    }

    @Test
    void overloadedCoordinator_isOverloadAndNotApplied() {
        OverloadedException overloaded = new OverloadedException(null);
        assertEquals(Status.OVERLOAD, Failures.outcome(overloaded, "put").status());
        assertTrue(Failures.certainlyNotApplied(overloaded));
    }

    @Test
    void throttled_isOverload() {
        assertEquals(Status.OVERLOAD, Failures.outcome(new RequestThrottlingException("full"), "put").status());
    }

    @Test
    void visitFailure_unavailable_isContentUnavailable() {
        UnavailableException unavailable = new UnavailableException(null, QUORUM, 2, 1);
        CompletionException failure = Failures.visitFailure(new CompletionException(unavailable), "a visit");
        assertInstanceOf(ContentUnavailableException.class, failure.getCause());
        assertEquals("Cassandra is unavailable for a visit, retry later (UnavailableException: "
                     + unavailable.getMessage() + ")", failure.getCause().getMessage());
    }

    @Test
    void visitFailure_cancellation_isKept() {
        CancellationException cancelled = new CancellationException("cancelled");
        assertSame(cancelled, Failures.visitFailure(cancelled, "a visit").getCause());
    }

    @Test
    void otherFailure_isErrorNamingOperation() {
        var outcome = Failures.outcome(new InvalidQueryException(null, "bad query"), "get of 'id:ns:t::1'");
        assertEquals(Status.ERROR, outcome.status());
        assertEquals("Cassandra failed on get of 'id:ns:t::1' (InvalidQueryException: bad query)",
                     outcome.message());
    }

    /** What the driver throws when every node of the query plan failed, here with {@code errors} on one node. */
    private static final class AllNodesFailed extends AllNodesFailedException {

        private static final long serialVersionUID = 1L;

        AllNodesFailed(Throwable... errors) {
            super("All nodes tried for the query failed", null,
                  errors.length == 0 ? List.of() : List.of(Map.entry(node(), List.of(errors))));
        }

        /** A stand-in node: the driver's nodes need a running session, and only its identity matters here. */
        private static Node node() {
            return (Node) Proxy.newProxyInstance(Node.class.getClassLoader(), new Class<?>[] { Node.class },
                                                 (proxy, method, args) -> {
                switch (method.getName()) {
                    case "hashCode": return System.identityHashCode(proxy);
                    case "equals": return proxy == args[0];
                    case "toString": return "node1";
                    default: throw new UnsupportedOperationException(method.getName());
                }
            });
        }

    }

}
