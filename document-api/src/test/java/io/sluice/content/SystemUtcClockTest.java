package io.sluice.content;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

class SystemUtcClockTest {

    private final AtomicLong nanoTime = new AtomicLong(5_000_000_000L);
    private final AtomicReference<Instant> wall = new AtomicReference<>(Instant.parse("2026-11-28T10:00:00Z"));
    private final AtomicInteger wallReads = new AtomicInteger();
    private final SystemUtcClock clock = new SystemUtcClock(nanoTime::get, () -> {
        wallReads.incrementAndGet();
        return wall.get();
    });

    @Test
    void instant_addsMonotonicTimeToTheWallReading() {
        nanoTime.addAndGet(1_234_567);
        assertEquals(Instant.parse("2026-11-28T10:00:00.001234567Z"), clock.instant());
        assertEquals(Instant.parse("2026-11-28T10:00:00.001Z").toEpochMilli(), clock.millis());
        assertEquals(1, wallReads.get());
    }

    @Test
    void wallClock_readAgainAfterASecond() {
        wall.set(Instant.parse("2026-11-28T10:00:05Z")); // the system clock stepped: seen only at the next calibration
        nanoTime.addAndGet(999_999_999);
        assertEquals(Instant.parse("2026-11-28T10:00:00.999999999Z"), clock.instant());
        nanoTime.addAndGet(1);
        assertEquals(Instant.parse("2026-11-28T10:00:05Z"), clock.instant());
        nanoTime.addAndGet(500);
        assertEquals(Instant.parse("2026-11-28T10:00:05.000000500Z"), clock.instant());
        assertEquals(2, wallReads.get());
    }

    @Test
    void beforeTheEpoch_roundsDown() {
        wall.set(Instant.parse("1969-12-31T23:59:59.9995Z"));
        SystemUtcClock old = new SystemUtcClock(nanoTime::get, wall::get);
        assertEquals(Instant.parse("1969-12-31T23:59:59.9995Z"), old.instant());
        assertEquals(-1, old.millis());
    }

    @Test
    void zone_isUtc() {
        assertEquals(ZoneOffset.UTC, clock.getZone());
        assertSame(clock, clock.withZone(ZoneOffset.UTC));
        ZoneId oslo = ZoneId.of("Europe/Oslo");
        assertEquals(Clock.system(oslo), clock.withZone(oslo));
    }

}
