package io.sluice.content.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Tells whether the data directory's file system still has room for writes: at least a configured number of bytes
 * usable. The free space is looked up at most once per refresh interval (a cheap {@code statvfs}), so a check costs
 * a volatile read. Thread-safe.
 */
final class DiskSpaceGuard {

    private static final long REFRESH_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private final FileStore fileStore;
    private final Path directory;
    private final long minFreeBytes;
    private final LongSupplier nanoTime;
    private volatile long usableBytes;
    private volatile long checkedAtNanos;

    DiskSpaceGuard(Path directory, long minFreeBytes, LongSupplier nanoTime) {
        try {
            this.fileStore = Files.getFileStore(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find the file system of " + directory, e);
        }
        this.directory = directory;
        this.minFreeBytes = minFreeBytes;
        this.nanoTime = nanoTime;
        refresh(nanoTime.getAsLong());
    }

    /** The usable bytes of the file system, looked up at most once per refresh interval. */
    long usableBytes() {
        long now = nanoTime.getAsLong();
        if (now - checkedAtNanos > REFRESH_NANOS) {
            refresh(now);
        }
        return usableBytes;
    }

    /** Whether there is at least the configured free space. */
    boolean hasRoom() {
        if (minFreeBytes == 0) {
            return true;
        }
        long now = nanoTime.getAsLong();
        if (now - checkedAtNanos > REFRESH_NANOS) {
            refresh(now);
        }
        return usableBytes >= minFreeBytes;
    }

    private void refresh(long now) {
        try {
            usableBytes = fileStore.getUsableSpace();
        } catch (IOException e) {
            usableBytes = 0; // unknown counts as full: refusing writes is safer than filling the disk
        }
        checkedAtNanos = now;
    }

    /** Why writes are refused, for the client. */
    String describe() {
        return "the file system of " + directory + " has " + usableBytes + " bytes free, below the limit of "
               + minFreeBytes + " bytes";
    }

}
