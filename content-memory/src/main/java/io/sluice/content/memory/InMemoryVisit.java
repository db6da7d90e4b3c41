package io.sluice.content.memory;

import io.sluice.content.DocumentKey;
import io.sluice.content.KeyRange;
import io.sluice.content.ProgressToken;
import io.sluice.content.PulledVisit;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import io.sluice.content.VisitPlan;
import io.sluice.content.VisitSpec;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * A visit over one bucket space of the in-memory store. It walks the sorted map from its position a unit at a time,
 * jumping over stretches without entries, and reads no further than a batch needs (plus a peek at the next key, so a
 * batch that ends where a unit ends reports the bucket boundary). No snapshot: concurrent writes may or may not be seen.
 */
final class InMemoryVisit extends PulledVisit {

    /** Entries and units one batch looks at before returning, so a sparse selection cannot hog a thread. */
    static final int MAX_SCANNED_PER_BATCH = 4096;

    private final ConcurrentNavigableMap<DocumentKey, StoredEntry> entries;
    private final VisitPlan plan;
    private final Executor executor;
    private final Predicate<StoredEntry> expired;
    private volatile DocumentKey position; // null once finished

    InMemoryVisit(ConcurrentNavigableMap<DocumentKey, StoredEntry> entries, VisitPlan plan, VisitSpec spec,
                  Clock clock, Executor executor, Predicate<StoredEntry> expired, BooleanSupplier backendClosed) {
        super("in-memory", spec, clock, backendClosed);
        this.entries = entries;
        this.plan = plan;
        this.executor = executor;
        this.expired = expired;
        this.position = plan.start();
    }

    @Override
    protected CompletableFuture<VisitBatch> read(int maxEntries) {
        return readOn(executor, () -> scan(maxEntries));
    }

    private VisitBatch scan(int maxEntries) {
        List<VisitEntry> out = new ArrayList<>();
        DocumentKey at = position;
        int scanned = 0;
        while (at != null) {
            Optional<KeyRange> unit = plan.unitAt(at);
            if (unit.isEmpty()) {
                at = null;
                break;
            }
            KeyRange range = unit.get();
            if (at.compareTo(range.start()) < 0) {
                at = range.start();
            }
            DocumentKey beyond = null;
            boolean stopped = false;
            for (Map.Entry<DocumentKey, StoredEntry> entry : entries.tailMap(at, true).entrySet()) {
                DocumentKey key = entry.getKey();
                if (!range.contains(key.orderKey())) {
                    beyond = key;
                    break;
                }
                if (out.size() >= maxEntries || scanned >= MAX_SCANNED_PER_BATCH) {
                    at = key;
                    stopped = true;
                    break;
                }
                scanned++;
                accept(key, entry.getValue()).ifPresent(out::add);
            }
            if (stopped) {
                return batch(out, at, false);
            }
            at = afterUnit(range, beyond);
            scanned++;
            if (at != null && (out.size() >= maxEntries || scanned >= MAX_SCANNED_PER_BATCH)) {
                return batch(out, plan.unitAt(at).isPresent() ? at : null, true);
            }
        }
        return batch(out, null, true);
    }

    /** Where to go once {@code range} is done: its end, or further to the next entry's bucket; null if nothing is left. */
    private static DocumentKey afterUnit(KeyRange range, DocumentKey beyond) {
        Optional<DocumentKey> end = range.end();
        if (end.isEmpty() || beyond == null) {
            return null;
        }
        return Long.compareUnsigned(beyond.orderKey(), end.get().orderKey()) > 0
               ? DocumentKey.bucketStart(beyond.orderKey())
               : end.get();
    }

    private VisitBatch batch(List<VisitEntry> out, DocumentKey at, boolean atBoundary) {
        position = at;
        if (at == null) {
            return new VisitBatch(out, Optional.empty(), true, 100);
        }
        ProgressToken token = plan.token(at);
        return new VisitBatch(out, Optional.of(token), atBoundary, plan.percentFinished(at));
    }

    private Optional<VisitEntry> accept(DocumentKey key, StoredEntry entry) {
        if (entry.isLive()) {
            return live(entry.document(), entry.timestamp());
        }
        if (expired.test(entry)) {
            entries.remove(key, entry);
            return Optional.empty();
        }
        return removed(entry.id(), entry.type(), entry.timestamp());
    }

}
