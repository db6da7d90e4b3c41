package io.sluice.feed.cli;

import io.sluice.feed.VisitSink;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes one slice's documents as JSON lines, gathered in a block of the slice's own: to a file of the slice's own,
 * which a rewind truncates back to the last continuation; or to an output that slices share, which takes a whole
 * block of lines at a time, so slices meet there once per block rather than once per document. Before a
 * continuation is recorded in the checkpoint, everything before it is written out. Used by the slice's thread only.
 */
final class SliceWriter implements VisitSink, Closeable {

    static final int BLOCK_BYTES = 1 << 16;

    private final int sliceId;
    private final OutputStream shared;   // null when the slice has a file
    private final FileChannel file;      // null when the slice writes to the shared output
    private final Checkpoint checkpoint; // null without --checkpoint
    private final LongAdder documents;
    private final AtomicLongArray permille;
    private final byte[] block = new byte[BLOCK_BYTES];
    private int used = 0;
    private long written;                // bytes of the slice's output, the ones still in the block included
    private long atToken;                // bytes of the slice's output when the last continuation came
    private long documentsSinceToken = 0;

    private SliceWriter(int sliceId, OutputStream shared, FileChannel file, long written, Checkpoint checkpoint,
                        LongAdder documents, AtomicLongArray permille) {
        this.sliceId = sliceId;
        this.shared = shared;
        this.file = file;
        this.written = this.atToken = written;
        this.checkpoint = checkpoint;
        this.documents = documents;
        this.permille = permille;
    }

    /** Writes to {@code shared}, whose lock the slices take to write a block, and to flush at a continuation. */
    static SliceWriter toShared(int sliceId, OutputStream shared, Checkpoint checkpoint, LongAdder documents,
                                AtomicLongArray permille) {
        return new SliceWriter(sliceId, shared, null, 0, checkpoint, documents, permille);
    }

    /** Writes to {@code path} after its first {@code keep} bytes, dropping the rest: what came after the checkpoint. */
    static SliceWriter toFile(int sliceId, Path path, long keep, Checkpoint checkpoint, LongAdder documents,
                              AtomicLongArray permille) throws IOException {
        FileChannel file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        try {
            file.truncate(keep);
            file.position(keep);
        }
        catch (IOException e) {
            file.close();
            throw e;
        }
        return new SliceWriter(sliceId, null, file, keep, checkpoint, documents, permille);
    }

    @Override
    public void document(byte[] json, int offset, int length) throws IOException {
        if (length + 1 > block.length - used) drain();
        if (length + 1 > block.length) { // a document bigger than a block goes out on its own, as one line
            if (file != null) {
                write(json, offset, length);
                write(new byte[] { '\n' }, 0, 1);
            }
            else synchronized (shared) {
                shared.write(json, offset, length);
                shared.write('\n');
            }
        }
        else {
            System.arraycopy(json, offset, block, used, length);
            used += length;
            block[used++] = '\n';
        }
        written += length + 1;
        documentsSinceToken++;
        documents.increment();
    }

    @Override
    public void continuation(Optional<String> token, double percentFinished) throws IOException {
        drain();
        if (shared != null) synchronized (shared) { shared.flush(); }
        atToken = written;
        documentsSinceToken = 0;
        if (checkpoint != null) checkpoint.update(sliceId, token, file != null ? written : 0);
        if (token.isEmpty()) permille.set(sliceId, 1000);
        else if ( ! Double.isNaN(percentFinished)) permille.set(sliceId, (long) (percentFinished * 10));
    }

    /** Drops what the slice wrote to its file after the last continuation; an output shared with others is kept. */
    @Override
    public void rewind() throws IOException {
        if (file == null || written == atToken) return;
        used = 0;
        file.truncate(atToken);
        file.position(atToken);
        written = atToken;
        documents.add(-documentsSinceToken);
        documentsSinceToken = 0;
    }

    /** Writes out what the block holds, and closes the slice's file; a shared output is left open and unflushed. */
    @Override
    public void close() throws IOException {
        try {
            drain();
        }
        finally {
            if (file != null) file.close();
        }
    }

    private void drain() throws IOException {
        if (used == 0) return;
        if (file != null) write(block, 0, used);
        else synchronized (shared) { shared.write(block, 0, used); }
        used = 0;
    }

    private void write(byte[] bytes, int offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes, offset, length);
        while (buffer.hasRemaining()) file.write(buffer);
    }

}
