package io.sluice.feed.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * Compares two endpoints' spilled documents partition by partition: a partition of each side is read into memory (ids
 * and digests only, the last record of an id winning), compared, and its files deleted before the next. Memory is
 * bounded by the largest partition, not the corpus. Differences go to a {@link Differences}, partition by partition,
 * each partition's in id order.
 */
final class DiffComparison {

    /** What was found, in documents. */
    record Counts(long onlyInA, long onlyInB, long differing, long equal) {
        long differences() { return onlyInA + onlyInB + differing; }
        long documentsA() { return onlyInA + differing + equal; }
        long documentsB() { return onlyInB + differing + equal; }
    }

    /** Receives the differences; {@code document} is A's visited document, or null when documents were not kept. */
    interface Differences {
        void onlyInA(String id, byte[] document) throws IOException;
        void differing(String id, byte[] document) throws IOException;
        void onlyInB(String id) throws IOException;
    }

    private DiffComparison() { }

    /** Compares every partition; {@code done} hears of each partition compared. */
    static Counts compare(DiffSpill a, DiffSpill b, Differences differences, IntConsumer done) throws IOException {
        if (a.partitionCount() != b.partitionCount()) throw new IllegalArgumentException("Both sides must have as many partitions");
        long onlyInA = 0, onlyInB = 0, differing = 0, equal = 0;
        for (int p = 0; p < a.partitionCount(); p++) {
            Map<String, DiffSpill.Record> inB = new HashMap<>();
            b.read(p, record -> inB.put(record.id(), record));
            Map<String, DiffSpill.Record> inA = new HashMap<>();
            a.read(p, record -> inA.put(record.id(), record));
            List<DiffSpill.Record> aOnly = new ArrayList<>(), changed = new ArrayList<>();
            for (DiffSpill.Record record : inA.values()) {
                DiffSpill.Record other = inB.remove(record.id());
                if (other == null) aOnly.add(record);
                else if (other.high() != record.high() || other.low() != record.low()) changed.add(record);
                else equal++;
            }
            List<String> bOnly = new ArrayList<>(inB.keySet());
            aOnly.sort((x, y) -> x.id().compareTo(y.id()));
            changed.sort((x, y) -> x.id().compareTo(y.id()));
            bOnly.sort(null);
            try (DiffSpill.Documents documents = a.keepsDocuments() ? a.new Documents(p) : null) {
                for (DiffSpill.Record record : aOnly) differences.onlyInA(record.id(), documents == null ? null : documents.read(record));
                for (DiffSpill.Record record : changed) differences.differing(record.id(), documents == null ? null : documents.read(record));
            }
            for (String id : bOnly) differences.onlyInB(id);
            onlyInA += aOnly.size();
            differing += changed.size();
            onlyInB += bOnly.size();
            a.delete(p);
            b.delete(p);
            done.accept(p);
        }
        return new Counts(onlyInA, onlyInB, differing, equal);
    }

}
