package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import io.sluice.container.ManualClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Admission on its own: the count, byte and age limits, and release. */
class AdmissionTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    private Admission admission(int maxOperations, long maxBytes) {
        return new Admission(maxOperations, maxBytes, Duration.ofSeconds(3), clock);
    }

    private static String refusal(Runnable action) {
        HttpStatusException e = assertThrows(HttpStatusException.class, action::run);
        assertEquals(429, e.status());
        return e.getMessage();
    }

    @Test
    void countLimit_refusesOneMoreWithVespaText_andReleaseMakesRoom() {
        Admission admission = admission(2, 1000);
        Admission.Permit first = admission.admit(0);
        admission.admit(0);
        assertEquals("Rejecting execution due to overload: 2 requests already enqueued", refusal(() -> admission.admit(0)));
        assertEquals(2, admission.pending());
        first.release();
        assertDoesNotThrow(() -> admission.admit(0));
        assertEquals(2, admission.pending());
    }

    @Test
    void byteLimit_refusesWhatWouldExceedIt_butNeverALoneOperation() {
        Admission admission = admission(10, 100);
        Admission.Permit big = admission.admit(500); // alone: admitted whatever its size
        assertEquals(500, admission.pendingBytes());
        assertEquals("Rejecting execution due to overload: estimated size of operation is 1, total size of queue 501 "
                     + "would exceed queue limit of 100", refusal(() -> admission.admit(1)));
        assertEquals(500, admission.pendingBytes()); // the refused one left no trace
        assertEquals(1, admission.pending());
        big.release();
        admission.admit(60);
        assertEquals("Rejecting execution due to overload: estimated size of operation is 41, total size of queue 101 "
                     + "would exceed queue limit of 100", refusal(() -> admission.admit(41)));
        admission.admit(40);
        assertEquals(100, admission.pendingBytes());
    }

    @Test
    void oldestPendingOlderThanMaxAge_refusesNewWork_untilItIsReleased() {
        Admission admission = admission(10, 1000);
        Admission.Permit old = waiting(admission.admit(0));
        clock.advance(Duration.ofMillis(2000));
        Admission.Permit young = waiting(admission.admit(0));
        clock.advance(Duration.ofMillis(1001));
        assertEquals(3001, admission.oldestAgeMillis());
        assertEquals("Rejecting execution due to overload: 3.0 seconds worth of work enqueued", refusal(() -> admission.admit(0)));
        assertEquals("Rejecting execution due to overload: 3.0 seconds worth of work enqueued", refusal(admission::check));
        old.release();
        assertEquals(1001, admission.oldestAgeMillis()); // the younger one is now the oldest
        assertDoesNotThrow(() -> admission.admit(0));
        young.release();
        assertDoesNotThrow(admission::check);
    }

    @Test
    void releasedOperationsOutOfOrder_areForgottenOnceTheOldestGoes() {
        Admission admission = admission(10, 1000);
        Admission.Permit first = waiting(admission.admit(0));
        clock.advance(Duration.ofMillis(10));
        Admission.Permit second = waiting(admission.admit(0));
        clock.advance(Duration.ofMillis(10));
        Admission.Permit third = waiting(admission.admit(0));
        second.release();
        third.release();
        assertEquals(20, admission.oldestAgeMillis());
        first.release();
        assertEquals(0, admission.oldestAgeMillis());
        assertEquals(0, admission.pending());
    }

    @Test
    void operationsThatNeverWaited_haveNoAge() {
        Admission admission = admission(10, 1000);
        Admission.Permit atOnce = admission.admit(0); // its backend call completed as it returned
        clock.advance(Duration.ofMillis(5000));
        assertEquals(0, admission.oldestAgeMillis());
        assertDoesNotThrow(() -> admission.admit(0));
        assertEquals(2, admission.pending()); // the count holds every operation admitted and not released
        atOnce.release();
        assertEquals(1, admission.pending());
    }

    @Test
    void release_isIdempotent() {
        Admission admission = admission(10, 1000);
        Admission.Permit permit = admission.admit(7);
        admission.admit(3);
        permit.release();
        permit.release();
        assertEquals(1, admission.pending());
        assertEquals(3, admission.pendingBytes());
    }

    @Test
    void check_refusesWhenTheCountLimitIsReached_withoutTakingAnything() {
        Admission admission = admission(1, 1000);
        admission.check();
        assertEquals(0, admission.pending());
        admission.admit(0);
        assertEquals("Rejecting execution due to overload: 1 requests already enqueued", refusal(admission::check));
    }

    private static Admission.Permit waiting(Admission.Permit permit) {
        permit.waiting();
        return permit;
    }

}
