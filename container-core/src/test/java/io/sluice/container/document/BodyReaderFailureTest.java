package io.sluice.container.document;

import org.eclipse.jetty.http.HttpException;
import org.junit.jupiter.api.Test;

import java.io.EOFException;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How a failure while a body streams in becomes a status. */
class BodyReaderFailureTest {

    @Test
    void idleTimeout_is408() {
        var failure = BodyReader.readFailure(new TimeoutException("Idle timeout expired: 30000/30000 ms"));
        assertEquals(408, failure.status());
        assertEquals("Request body did not arrive in time: Idle timeout expired: 30000/30000 ms", failure.getMessage());
    }

    @Test
    void httpFailure_keepsItsStatus() {
        assertEquals(413, BodyReader.readFailure(new HttpException.RuntimeException(413, "too large")).status());
    }

    @Test
    void connectionFailure_is400() {
        assertEquals(400, BodyReader.readFailure(new EOFException()).status());
    }

}
