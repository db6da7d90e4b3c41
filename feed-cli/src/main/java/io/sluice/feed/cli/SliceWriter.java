package io.sluice.feed.cli;

import io.sluice.feed.VisitSink;

import java.io.Closeable;
import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Writes one slice's documents as lines to an output that slices share, gathered in a block of the slice's own, so
 * slices meet there once per block rather than once per document. Before a continuation is recorded in the checkpoint,
 * everything before it is written out and flushed. Used for one slice, by one thread at a time (see VisitSink).
 */
final class SliceWriter implements VisitSink, Closeable {

    static final int BLOCK_BYTES = 1 << 16;

    private final int sliceId;
    private final SharedOutput shared;
    private final Checkpoint checkpoint; // null without --checkpoint
    private final LongAdder documents;
    private final AtomicLongArray permille;
    private final int separator; // bytes before each document: 1 for the comma in an array, else 0
    private final byte[] block = new byte[BLOCK_BYTES];
    private int used = 0;
    private int counted = 0; // documents written or in the block, not yet added to documents: added a block at a time

    private SliceWriter(int sliceId, SharedOutput shared, Checkpoint checkpoint, LongAdder documents, AtomicLongArray permille) {
        this.sliceId = sliceId;
        this.shared = shared;
        this.checkpoint = checkpoint;
        this.documents = documents;
        this.permille = permille;
        this.separator = shared.array() ? 1 : 0;
    }

    /** Writes to {@code shared}; slice {@code sliceId}'s progress goes to {@code checkpoint} (if not null) and {@code permille}. */
    static SliceWriter toShared(int sliceId, SharedOutput shared, Checkpoint checkpoint, LongAdder documents,
                                AtomicLongArray permille) {
        return new SliceWriter(sliceId, shared, checkpoint, documents, permille);
    }

    @Override
    public void document(byte[] json, int offset, int length) throws IOException {
        int needed = separator + length + 1;
        if (needed > block.length - used) drain();
        if (needed > BLOCK_BYTES) { // a document bigger than a block goes out on its own
            byte[] line = new byte[needed];
            if (separator == 1) line[0] = ',';
            System.arraycopy(json, offset, line, separator, length);
            line[needed - 1] = '\n';
            shared.write(line, 0, needed);
            documents.increment(); // the block was drained just above
            return;
        }
        if (separator == 1) block[used++] = ',';
        System.arraycopy(json, offset, block, used, length);
        used += length;
        block[used++] = '\n';
        counted++;
    }

    @Override
    public void continuation(Optional<String> token, double percentFinished) throws IOException {
        drain();
        shared.flush();
        if (checkpoint != null) checkpoint.update(sliceId, token, 0);
        if (token.isEmpty()) permille.set(sliceId, 1000);
        else if ( ! Double.isNaN(percentFinished)) permille.set(sliceId, (long) (percentFinished * 10));
    }

    /** Writes out what the block holds; the shared output is left open and unflushed. */
    @Override
    public void close() throws IOException {
        drain();
    }

    private void drain() throws IOException {
        if (used == 0) return;
        shared.write(block, 0, used);
        used = 0;
        documents.add(counted); // one add per block: slices on several threads made each increment a contended one
        counted = 0;
    }

}
