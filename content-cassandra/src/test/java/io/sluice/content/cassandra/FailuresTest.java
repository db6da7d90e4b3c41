package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.RequestThrottlingException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import io.sluice.document.content.Outcome.Status;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    void driverTimeout_isTimeout() {
        assertEquals(Status.TIMEOUT, Failures.outcome(new DriverTimeoutException("slow"), "get").status());
    }

    @Test
    void unavailable_isRetryableOverloadAndNotApplied() {
        UnavailableException unavailable = new UnavailableException(null, QUORUM, 2, 1);
        assertEquals(Status.OVERLOAD, Failures.outcome(unavailable, "put").status());
        assertTrue(Failures.certainlyNotApplied(unavailable));
    }

    @Test
    void noNodeAvailable_isRetryableOverload() {
        assertEquals(Status.OVERLOAD, Failures.outcome(new NoNodeAvailableException(), "put").status());
    }

    @Test
    void throttled_isOverload() {
        assertEquals(Status.OVERLOAD, Failures.outcome(new RequestThrottlingException("full"), "put").status());
    }

    @Test
    void otherFailure_isErrorNamingOperation() {
        var outcome = Failures.outcome(new InvalidQueryException(null, "bad query"), "get of 'id:ns:t::1'");
        assertEquals(Status.ERROR, outcome.status());
        assertEquals("Cassandra failed on get of 'id:ns:t::1' (InvalidQueryException: bad query)",
                     outcome.message());
    }

}
