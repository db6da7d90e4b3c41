package io.sluice.feed.cli;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;

/**
 * Compares two endpoints' spilled documents partition by partition: a partition of each side is read into memory (ids
 * and digests only, the last record of an id winning), compared, and its files deleted once its differences are
 * handed on. A few partitions are compared at once; memory is bounded by those, not the corpus. Differences go to a {@link Differences}, partition by partition,
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

    /** One partition's differences. */
    private record Partition(List<DiffSpill.Record> onlyInA, List<DiffSpill.Record> differing, List<String> onlyInB, long equal) { }

    /**
     * Compares every partition, {@code threads} at a time (so memory holds up to {@code threads} + 1 partitions), and
     * hands the differences to {@code differences} partition by partition, from the calling thread; {@code done} hears
     * of each partition compared.
     */
    static Counts compare(DiffSpill a, DiffSpill b, Differences differences, IntConsumer done, int threads) throws IOException, InterruptedException {
        if (a.partitionCount() != b.partitionCount()) throw new IllegalArgumentException("Both sides must have as many partitions");
        long onlyInA = 0, onlyInB = 0, differing = 0, equal = 0;
        ExecutorService executor = Executors.newFixedThreadPool(threads, task -> {
            Thread thread = new Thread(task, "sluice-diff-compare");
            thread.setDaemon(true);
            return thread;
        });
        try {
            Deque<Future<Partition>> pending = new ArrayDeque<>();
            int submitted = 0;
            for (int p = 0; p < a.partitionCount(); p++) {
                while (submitted < a.partitionCount() && pending.size() <= threads) {
                    int partition = submitted++;
                    pending.add(executor.submit(() -> partition(a, b, partition)));
                }
                Partition result = await(pending.poll());
                try (DiffSpill.Documents documents = a.keepsDocuments() ? a.new Documents(p) : null) {
                    for (DiffSpill.Record record : result.onlyInA()) differences.onlyInA(record.id(), documents == null ? null : documents.read(record));
                    for (DiffSpill.Record record : result.differing()) differences.differing(record.id(), documents == null ? null : documents.read(record));
                }
                for (String id : result.onlyInB()) differences.onlyInB(id);
                onlyInA += result.onlyInA().size();
                differing += result.differing().size();
                onlyInB += result.onlyInB().size();
                equal += result.equal();
                a.delete(p);
                b.delete(p);
                done.accept(p);
            }
        }
        finally {
            executor.shutdownNow();
        }
        return new Counts(onlyInA, onlyInB, differing, equal);
    }

    private static Partition partition(DiffSpill a, DiffSpill b, int p) throws IOException {
        Map<String, DiffSpill.Record> inB = new HashMap<>();
        b.read(p, record -> inB.put(record.id(), record));
        Map<String, DiffSpill.Record> inA = new HashMap<>();
        a.read(p, record -> inA.put(record.id(), record));
        List<DiffSpill.Record> aOnly = new ArrayList<>(), changed = new ArrayList<>();
        long equal = 0;
        for (DiffSpill.Record record : inA.values()) {
            DiffSpill.Record other = inB.remove(record.id());
            if (other == null) aOnly.add(record);
            else if (other.high() != record.high() || other.low() != record.low()) changed.add(record);
            else equal++;
        }
        List<String> bOnly = new ArrayList<>(inB.keySet());
        aOnly.sort(Comparator.comparing(DiffSpill.Record::id));
        changed.sort(Comparator.comparing(DiffSpill.Record::id));
        bOnly.sort(null);
        return new Partition(aOnly, changed, bOnly, equal);
    }

    private static Partition await(Future<Partition> future) throws IOException, InterruptedException {
        try {
            return future.get();
        }
        catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) throw io;
            if (e.getCause() instanceof RuntimeException runtime) throw runtime;
            throw new IllegalStateException(e.getCause());
        }
    }

}
