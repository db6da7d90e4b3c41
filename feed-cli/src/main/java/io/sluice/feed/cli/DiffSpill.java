package io.sluice.feed.cli;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One endpoint's visited documents for {@code sluice diff}, spilled to disk in {@code partitions} files by a hash of
 * their ids, so the documents of a partition of both endpoints can be compared in memory, one partition at a time,
 * whatever order the endpoints visited them in. A record is the id, the {@link ContentDigest content digest} and, when
 * {@code keepDocuments}, the visited document itself (for a repair or the repair file). Writes are thread-safe.
 */
final class DiffSpill implements AutoCloseable {

    private static final int BUFFER = 32 << 10;

    private final Path directory;
    private final String side;
    private final boolean keepDocuments;
    private final DataOutputStream[] partitions;
    private boolean finished = false;

    /** A record read back: the document's bytes are at {@code documentOffset} in the partition's file, if kept. */
    record Record(String id, long high, long low, long documentOffset, int documentLength) { }

    /** Receives the records of a partition, in the order they were written. */
    interface RecordConsumer {
        void accept(Record record) throws IOException;
    }

    DiffSpill(Path directory, String side, int partitions, boolean keepDocuments) throws IOException {
        this.directory = directory;
        this.side = side;
        this.keepDocuments = keepDocuments;
        this.partitions = new DataOutputStream[partitions];
        for (int i = 0; i < partitions; i++)
            this.partitions[i] = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file(i)), BUFFER));
    }

    int partitionCount() { return partitions.length; }

    boolean keepsDocuments() { return keepDocuments; }

    /** The partition of a document id: the same for both endpoints. */
    static int partition(String id, int partitions) {
        long h = id.hashCode() * 0x9e37_79b9_7f4a_7c15L;
        return (int) ((h >>> 32) * partitions >>> 32);
    }

    void write(ContentDigest.Entry entry, byte[] document, int offset, int length) {
        int p = partition(entry.id(), partitions.length);
        byte[] id = entry.id().getBytes(StandardCharsets.UTF_8);
        DataOutputStream out = partitions[p];
        try {
            synchronized (out) {
                out.writeInt(id.length);
                out.write(id);
                out.writeLong(entry.high());
                out.writeLong(entry.low());
                if (keepDocuments) {
                    out.writeInt(length);
                    out.write(document, offset, length);
                }
                else out.writeInt(-1);
            }
        }
        catch (IOException e) {
            throw new UncheckedIOException("Failed writing to " + file(p) + ": " + e.getMessage(), e);
        }
    }

    /** Flushes and closes every partition's file, once; they stay for {@link #read}. */
    void finishWriting() throws IOException {
        if (finished) return;
        finished = true;
        IOException failure = null;
        for (DataOutputStream out : partitions) {
            try {
                synchronized (out) { out.close(); }
            }
            catch (IOException e) {
                failure = e;
            }
        }
        if (failure != null) throw failure;
    }

    @Override public void close() throws IOException { finishWriting(); }

    /** Reads partition {@code p}'s records, after {@link #finishWriting}. */
    void read(int p, RecordConsumer consumer) throws IOException {
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file(p)), BUFFER))) {
            long position = 0;
            while (true) {
                int idLength;
                try {
                    idLength = in.readInt();
                }
                catch (EOFException e) {
                    return;
                }
                byte[] id = in.readNBytes(idLength);
                if (id.length < idLength) throw new EOFException("Truncated " + file(p));
                long high = in.readLong(), low = in.readLong();
                int documentLength = in.readInt();
                long documentOffset = position + 4 + idLength + 16 + 4;
                if (documentLength > 0) in.skipNBytes(documentLength);
                position = documentOffset + Math.max(0, documentLength);
                consumer.accept(new Record(new String(id, StandardCharsets.UTF_8), high, low, documentOffset, documentLength));
            }
        }
    }

    /** Deletes partition {@code p}'s file, once compared. */
    void delete(int p) throws IOException {
        Files.deleteIfExists(file(p));
    }

    /** Reads documents of one partition by their offsets. */
    final class Documents implements AutoCloseable {

        private final FileChannel channel;

        Documents(int p) throws IOException {
            this.channel = FileChannel.open(file(p), StandardOpenOption.READ);
        }

        byte[] read(Record record) throws IOException {
            if (record.documentLength() < 0) throw new IllegalStateException("Documents were not kept for " + record.id());
            ByteBuffer buffer = ByteBuffer.allocate(record.documentLength());
            long at = record.documentOffset();
            while (buffer.hasRemaining()) {
                int read = channel.read(buffer, at);
                if (read < 0) throw new EOFException("Truncated spill file of " + side);
                at += read;
            }
            return buffer.array();
        }

        @Override public void close() throws IOException { channel.close(); }

    }

    private Path file(int p) {
        return directory.resolve(String.format(java.util.Locale.ROOT, "%s-%05d.spill", side, p));
    }

}
