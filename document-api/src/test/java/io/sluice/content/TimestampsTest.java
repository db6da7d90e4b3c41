package io.sluice.content;

import io.sluice.document.Document;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;

class TimestampsTest {

    private static final Instant START = Instant.parse("2026-01-01T00:00:00.000001Z");
    private static final long START_MICROS = 1_767_225_600_000_001L;

    private final ManualClock clock = new ManualClock(START);

    private static Version at(long timestamp) {
        return new Version() {
            @Override
            public boolean isLive() {
                return false;
            }

            @Override
            public long timestamp() {
                return timestamp;
            }

            @Override
            public Document document() {
                throw new AssertionError("not a live version");
            }
        };
    }

    @Test
    void nowMicros_isTheClocksInstantInMicroseconds() {
        assertEquals(START_MICROS, Timestamps.nowMicros(clock));
    }

    @Test
    void after_noPrevious_isNow() {
        assertEquals(START_MICROS, Timestamps.after(clock, null));
    }

    @Test
    void after_previousInTheFuture_isOneMore() {
        assertEquals(START_MICROS + 1_000_001, Timestamps.after(clock, at(START_MICROS + 1_000_000)));
    }

    @Test
    void after_olderPrevious_isNow() {
        assertEquals(START_MICROS, Timestamps.after(clock, at(START_MICROS - 5)));
    }

    @Test
    void monotonic_sameInstant_stillIncreases() {
        Timestamps timestamps = Timestamps.monotonic(clock, 0);
        assertEquals(START_MICROS, timestamps.next());
        assertEquals(START_MICROS + 1, timestamps.next());
    }

    @Test
    void monotonic_clockSteppingBack_neverRepeats() {
        Timestamps timestamps = Timestamps.monotonic(clock, 0);
        long first = timestamps.next();
        clock.set(START.minusSeconds(60));
        assertEquals(first + 1, timestamps.next());
        clock.set(START.plusSeconds(1));
        assertEquals(START_MICROS + 1_000_000, timestamps.next());
    }

    @Test
    void monotonic_floorAndObserved_areExceeded() {
        Timestamps timestamps = Timestamps.monotonic(clock, START_MICROS + 100);
        assertEquals(START_MICROS + 101, timestamps.next());
        timestamps.observe(START_MICROS + 500);
        assertEquals(START_MICROS + 501, timestamps.next());
        timestamps.observe(START_MICROS); // an older one changes nothing
        assertEquals(START_MICROS + 502, timestamps.next());
    }

    @Test
    void micros_saturates() {
        assertEquals(1_500_000, Timestamps.micros(Duration.ofMillis(1500)));
        assertEquals(Long.MAX_VALUE, Timestamps.micros(Duration.ofSeconds(Long.MAX_VALUE)));
    }

}
