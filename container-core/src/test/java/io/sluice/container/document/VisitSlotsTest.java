package io.sluice.container.document;

import io.sluice.config.VisitLimits;
import io.sluice.container.ManualClock;
import io.sluice.container.HttpStatusException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Visit slots are shared fairly between clients and connections, and a visit whose client stopped reading ends. */
class VisitSlotsTest {

    private final ManualClock clock = HandlerFixture.newClock();
    private final List<Throwable> ended = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private final VisitSlots slots = new VisitSlots(new VisitLimits(8, 4, 2, Duration.ofSeconds(30)), clock, warnings::add);

    private VisitSlots.Slot take(Object connection, String client) {
        return slots.take(new VisitSlots.Claimant(connection, client), ended::add);
    }

    @Test
    void clientAtItsShare_is429NamingThePerClientLimit_whileOthersStillGetSlots() {
        for (int i = 0; i < 4; i++)
            take(new Object(), "10.0.0.1"); // one connection each: only the client's share applies
        HttpStatusException refused = assertThrows(HttpStatusException.class, () -> take(new Object(), "10.0.0.1"));
        assertEquals(429, refused.status());
        assertEquals("Rejecting execution due to overload: per-client limit reached: 10.0.0.1 already runs 4 of the 8 "
                     + "visits that may run at once", refused.getMessage());
        take(new Object(), "10.0.0.2");
        assertEquals(5, slots.running());
        assertEquals(1, slots.refusedPerClient());
    }

    @Test
    void connectionAtItsShare_is429_whileTheSameClientMayUseAnother() {
        Object connection = new Object();
        take(connection, "127.0.0.1");
        take(connection, "127.0.0.1");
        HttpStatusException refused = assertThrows(HttpStatusException.class, () -> take(connection, "127.0.0.1"));
        assertEquals("Rejecting execution due to overload: per-client limit reached: this connection already runs 2 of "
                     + "the 8 visits that may run at once", refused.getMessage());
        take(new Object(), "127.0.0.1");
        assertEquals(3, slots.running());
    }

    @Test
    void allSlotsTaken_is429ForEveryone() {
        for (int i = 0; i < 8; i++)
            take(new Object(), "client-" + i);
        HttpStatusException refused = assertThrows(HttpStatusException.class, () -> take(new Object(), "another"));
        assertEquals("Rejecting execution due to overload: 8 visits already running", refused.getMessage());
        assertEquals(0, slots.refusedPerClient());
    }

    @Test
    void releasedSlot_isFreeForTheSameClientAgain_once() {
        Object connection = new Object();
        VisitSlots.Slot first = take(connection, "a");
        take(connection, "a");
        first.release();
        first.release(); // a second release frees nothing more
        take(connection, "a");
        assertThrows(HttpStatusException.class, () -> take(connection, "a"));
        assertEquals(2, slots.running());
    }

    @Test
    void writePendingForTheStallTimeout_endsTheVisitAndFreesItsSlot() {
        Object connection = new Object();
        VisitSlots.Slot stalled = take(connection, "a");
        VisitSlots.Slot reading = take(new Object(), "b");
        stalled.writing();
        clock.advance(Duration.ofSeconds(10));
        reading.writing();
        clock.advance(Duration.ofSeconds(19));
        assertEquals(0, slots.sweep());
        clock.advance(Duration.ofSeconds(1));
        assertEquals(1, slots.sweep());
        assertEquals(1, ended.size());
        assertInstanceOf(TimeoutException.class, ended.get(0));
        assertEquals("Visit ended: its client took no data for 30000 ms", ended.get(0).getMessage());
        assertEquals(1, slots.running());
        assertEquals(1, slots.stalledVisits());
        take(connection, "a"); // the slot is free again
        take(connection, "a");
        stalled.release(); // the exchange completing later frees nothing more
        assertEquals(3, slots.running());
    }

    @Test
    void writesThatComplete_neverStall() {
        VisitSlots.Slot slot = take(new Object(), "a");
        for (int i = 0; i < 10; i++) {
            slot.writing();
            clock.advance(Duration.ofSeconds(29));
            slot.written();
            assertEquals(0, slots.sweep());
        }
        assertEquals(1, slots.running());
    }

    @Test
    void visitWaitingForItsBackend_withNoWritePending_neverStalls() {
        take(new Object(), "a");
        clock.advance(Duration.ofMinutes(10));
        assertEquals(0, slots.sweep());
        assertEquals(0, slots.stalledVisits());
    }

    @Test
    void endedVisits_areLoggedAtMostOnceAMinute_withTheCountSinceTheLastLine() {
        stall(take(new Object(), "a"));
        assertEquals(List.of("Ended 1 visit(s) whose clients took no data for 30.0 s (the last from a), freeing their "
                             + "slots; 1 in all so far (httpapi_stalled_visits); logged at most once a minute"), warnings);
        clock.advance(Duration.ofSeconds(29));
        stall(take(new Object(), "b")); // 59 s after the line
        assertEquals(1, warnings.size());
        clock.advance(Duration.ofSeconds(1));
        stall(take(new Object(), "c"));
        assertEquals(2, warnings.size());
        assertEquals("Ended 2 visit(s) whose clients took no data for 30.0 s (the last from c), freeing their slots; "
                     + "3 in all so far (httpapi_stalled_visits); logged at most once a minute", warnings.get(1));
    }

    /** Has {@code slot}'s client take no data for the stall timeout, and sweeps. */
    private void stall(VisitSlots.Slot slot) {
        slot.writing();
        clock.advance(Duration.ofSeconds(30));
        assertEquals(1, slots.sweep());
    }

}
