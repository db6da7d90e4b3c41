package io.sluice.feed.cli;

import io.sluice.feed.VisitSink;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * Digests one slice's visited documents and spills them. Documents delivered again after a {@link #rewind} are
 * spilled again; the comparison keeps the last record of an id, so a repeat is no difference.
 */
final class DiffSink implements VisitSink {

    private final ContentDigest digest = new ContentDigest();
    private final DiffSpill spill;
    private final LongAdder documents;
    private final AtomicLongArray permille;
    private final int unit;

    DiffSink(DiffSpill spill, LongAdder documents, AtomicLongArray permille, int unit) {
        this.spill = spill;
        this.documents = documents;
        this.permille = permille;
        this.unit = unit;
    }

    @Override
    public void document(byte[] json, int offset, int length) throws IOException {
        spill.write(digest.digest(json, offset, length), json, offset, length);
        documents.increment();
    }

    @Override
    public void continuation(Optional<String> token, double percentFinished) {
        if (token.isEmpty()) permille.set(unit, 1000);
        else if ( ! Double.isNaN(percentFinished)) permille.set(unit, (long) (percentFinished * 10));
    }

}
