package io.sluice.content;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The system's UTC clock, read as cheaply as {@link System#nanoTime}: the default clock of the engines and the
 * {@code /document/v1} handler, which read it several times per operation.
 *
 * <p>On JDK 17, {@code Clock.systemUTC().instant()} is a native call, whose transition out of Java code is a fence: in
 * the in-memory engine's write, where it waited on the misses of the version being replaced, it was 3.8% of the
 * server's CPU samples under h2c POSTs on 4 × 256 streams (async-profiler; a third of that was the call's own, the rest
 * moved to the next code; 5c4eec7, 2026-11-28). This clock reads the wall clock once, and again when a second of
 * {@link System#nanoTime} has passed since; in between it adds the monotonic time elapsed. So it differs from the
 * system clock by at most what NTP slews in a second (0.5 ms), and follows a step of the system clock within a second.
 * Like the system clock, it may go back then: timestamps that must increase take the maximum of it and the last one
 * ({@link Timestamps}).
 *
 * <p>Thread-safe; readers share the calibration through a volatile reference and never wait.
 */
public final class SystemUtcClock extends Clock {

    private static final long RECALIBRATE_NANOS = 1_000_000_000L;
    private static final SystemUtcClock INSTANCE = new SystemUtcClock(System::nanoTime, Clock.systemUTC()::instant);

    /** A wall-clock reading, in nanoseconds since the epoch, and the monotonic time it was taken at. */
    private record Calibration(long nanoTime, long epochNanos) { }

    private final LongSupplier nanoTime;
    private final Supplier<Instant> wall;
    private volatile Calibration calibration;

    SystemUtcClock(LongSupplier nanoTime, Supplier<Instant> wall) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.wall = Objects.requireNonNull(wall, "wall");
        this.calibration = calibrate();
    }

    /** The clock; one instance per process. */
    public static SystemUtcClock instance() {
        return INSTANCE;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    /** This clock for UTC; the system clock of {@code zone} for any other zone. */
    @Override
    public Clock withZone(ZoneId zone) {
        return zone.equals(ZoneOffset.UTC) ? this : Clock.system(zone);
    }

    @Override
    public Instant instant() {
        long nanos = epochNanos();
        return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }

    @Override
    public long millis() {
        return Math.floorDiv(epochNanos(), 1_000_000L);
    }

    private long epochNanos() {
        long now = nanoTime.getAsLong();
        Calibration base = calibration;
        if (now - base.nanoTime >= RECALIBRATE_NANOS) { // racing readers may both calibrate: either reading will do
            base = calibrate();
            calibration = base;
        }
        return base.epochNanos + (now - base.nanoTime);
    }

    private Calibration calibrate() {
        Instant now = wall.get();
        return new Calibration(nanoTime.getAsLong(), now.getEpochSecond() * 1_000_000_000L + now.getNano());
    }

    @Override
    public String toString() {
        return "SystemUtcClock";
    }

}
