package io.sluice.content.embedded;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A file of zeros in the data directory that holds back a little of the disk for the store's own start: opening the
 * store writes a new manifest, an options file and a new write-ahead log (the log's records are replayed into
 * memtables, not flushed to a table file: see {@link RocksStore#open}), and on a disk filled to its last byte those
 * writes fail, so the store could not start at all. When an open fails for lack of space, the reserve is deleted and
 * the open tried once more. The open store writes it in the background, within seconds, whenever it is missing and
 * the disk has room for it twice over ({@link #restoreIfRoom}), so the next full disk finds it in place.
 *
 * <p>Its size is four times the store's write buffers, as much as the write-ahead log may hold
 * ({@code max_total_wal_size}), as RocksDB still flushes a memtable that fills up while it replays the log; between
 * 256 KiB (for the manifest) and 64 MiB, and at most a quarter of the file system. So with write buffers above 16 MiB
 * a log that fills several memtables may still not replay on a disk full to its last byte. It is written with real
 * zeros and synced, not allocated sparsely, so the space is really held. Not thread-safe: the store releases it while
 * opening, and afterwards one periodic task writes it.
 */
final class DiskReserve {

    static final String FILE_NAME = "sluice-disk-reserve";
    static final long MIN_BYTES = 256L << 10;
    static final long MAX_BYTES = 64L << 20;

    private final Path file;
    private final long bytes;

    private DiskReserve(Path file, long bytes) {
        this.file = file;
        this.bytes = bytes;
    }

    /** The reserve of a store in {@code directory} (which must exist) with {@code writeBufferBytes} of memtables. */
    static DiskReserve in(Path directory, long writeBufferBytes) throws IOException {
        long total = Files.getFileStore(directory).getTotalSpace();
        long wanted = Math.max(MIN_BYTES, Math.min(MAX_BYTES, 4 * writeBufferBytes));
        return new DiskReserve(directory.resolve(FILE_NAME), Math.max(MIN_BYTES, Math.min(total / 4, wanted)));
    }

    /** Whether the reserve is in place (written whole). */
    boolean isHeld() {
        try {
            return Files.size(file) == bytes;
        } catch (IOException e) {
            return false;
        }
    }

    /** How many bytes the reserve holds when in place. */
    long bytes() {
        return bytes;
    }

    /**
     * Deletes the reserve, giving its space to the store; returns whether there was one to delete.
     *
     * @throws IOException if it exists and cannot be deleted
     */
    boolean release() throws IOException {
        return Files.deleteIfExists(file);
    }

    /**
     * Writes the reserve if it is not in place and the file system has room for it twice over (so a store that just
     * got its space back keeps as much again for its writes); returns whether it is in place now. A write that fails
     * midway (the space went to someone else) removes what it wrote.
     */
    boolean restoreIfRoom() throws IOException {
        if (isHeld())
            return true;
        Files.deleteIfExists(file); // a partial one, from a failed write
        if (file.getParent().toFile().getUsableSpace() < 2 * bytes)
            return false;
        ByteBuffer zeros = ByteBuffer.allocate(64 << 10);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long left = bytes; left > 0; left -= zeros.limit()) {
                zeros.clear().limit((int) Math.min(zeros.capacity(), left));
                while (zeros.hasRemaining())
                    out.write(zeros);
            }
            out.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(file);
            throw e;
        }
        return true;
    }

}
