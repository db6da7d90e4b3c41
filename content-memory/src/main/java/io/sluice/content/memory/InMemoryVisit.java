package io.sluice.content.memory;

import io.sluice.content.DocumentKey;
import io.sluice.content.OrderedScanVisit;
import io.sluice.content.VisitEntry;
import io.sluice.content.VisitPlan;
import io.sluice.content.VisitSpec;
import io.sluice.document.select.ParentDocuments;

import java.time.Clock;
import java.util.Iterator;
import java.util.Optional;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * A visit over one bucket space of the in-memory store: the walk of {@link OrderedScanVisit} over its sorted map.
 * Expired tombstones it passes are forgotten on the way.
 */
final class InMemoryVisit extends OrderedScanVisit {

    private final ConcurrentNavigableMap<DocumentKey, Slot> entries;
    private final Predicate<StoredEntry> expired;
    private final Consumer<Slot> forget;
    private final ParentDocuments parents;

    /** @param forget takes a slot whose tombstone expired out of the store, in the order of the document's operations */
    InMemoryVisit(ConcurrentNavigableMap<DocumentKey, Slot> entries, VisitPlan plan, VisitSpec spec, Clock clock,
                  Executor executor, Predicate<StoredEntry> expired, Consumer<Slot> forget, ParentDocuments parents,
                  BooleanSupplier backendClosed) {
        super("in-memory", plan, spec, clock, executor, backendClosed);
        this.entries = entries;
        this.expired = expired;
        this.forget = forget;
        this.parents = parents;
    }

    @Override
    protected ParentDocuments parents() {
        return parents;
    }

    @Override
    protected Cursor open() {
        return new Cursor() {
            private Iterator<Slot> iterator;
            private Slot current;

            @Override
            public void seek(DocumentKey key) {
                iterator = entries.tailMap(key, true).values().iterator();
                next();
            }

            @Override
            public boolean valid() {
                return current != null;
            }

            @Override
            public DocumentKey key() {
                return current.key();
            }

            @Override
            public long size() {
                return current.entry().bytes();
            }

            @Override
            public Optional<VisitEntry> accept() {
                return InMemoryVisit.this.accept(current);
            }

            @Override
            public void next() {
                current = iterator.hasNext() ? iterator.next() : null;
            }

            @Override
            public void close() { }
        };
    }

    private Optional<VisitEntry> accept(Slot slot) {
        StoredEntry entry = slot.entry();
        if (entry.isLive()) {
            return live(entry.document(), entry.timestamp(), entry.bytes());
        }
        if (expired.test(entry)) {
            forget.accept(slot);
            return Optional.empty();
        }
        return removed(entry.id(), entry.type(), entry.timestamp());
    }

}
