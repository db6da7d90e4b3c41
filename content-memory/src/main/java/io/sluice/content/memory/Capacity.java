package io.sluice.content.memory;

import java.util.concurrent.atomic.AtomicLong;

/** Counts live documents and their estimated bytes against optional limits, without locks. */
final class Capacity {

    private final long maxDocuments;
    private final long maxBytes;
    private final AtomicLong documents = new AtomicLong();
    private final AtomicLong bytes = new AtomicLong();

    /** Limits of {@link Long#MAX_VALUE} mean unlimited. */
    Capacity(long maxDocuments, long maxBytes) {
        this.maxDocuments = maxDocuments;
        this.maxBytes = maxBytes;
    }

    /**
     * Applies the change if the result stays within the limits; shrinking always succeeds.
     *
     * @return whether the change was applied
     */
    boolean tryChange(long documentDelta, long byteDelta) {
        if (!tryAdd(documents, documentDelta, maxDocuments)) {
            return false;
        }
        if (!tryAdd(bytes, byteDelta, maxBytes)) {
            documents.addAndGet(-documentDelta);
            return false;
        }
        return true;
    }

    private static boolean tryAdd(AtomicLong counter, long delta, long limit) {
        while (true) {
            long current = counter.get();
            long next = current + delta;
            if (delta > 0 && next > limit) {
                return false;
            }
            if (counter.compareAndSet(current, next)) {
                return true;
            }
        }
    }

    long documents() {
        return documents.get();
    }

    long bytes() {
        return bytes.get();
    }

    /** What the store is limited to, for messages. */
    String describeLimits() {
        return "at most " + (maxDocuments == Long.MAX_VALUE ? "unlimited" : Long.toString(maxDocuments))
               + " documents and " + (maxBytes == Long.MAX_VALUE ? "unlimited" : Long.toString(maxBytes)) + " bytes";
    }

}
