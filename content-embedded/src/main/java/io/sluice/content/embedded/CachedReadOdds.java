package io.sluice.content.embedded;

/**
 * Whether an operation that reads should first try to read on its caller's thread, from what the memtables and the
 * block cache hold, or go straight to a store thread. A try that finds its blocks saves the hand-off to a store
 * thread and back; one that misses has searched the memtables and every level's index and filter in vain, and the
 * store thread searches them again. On a store larger than its block cache, read at random, most tries miss. GETs of
 * 200,000 random ids of a 1,000,000-document store with a 64 MiB cache (2026-11-28): 66-72 us of server CPU per GET
 * while every GET tried first, 53 us with this; where three in four tries hit, the same as before.
 *
 * <p>A score follows the tries: up one for a hit, down one for a miss, within [-{@link #LIMIT}, {@link #LIMIT}],
 * starting at the top. Operations try while it is not below zero, so while about half or more of the recent tries
 * hit (a hit saves a hand-off, a miss wastes a search: costs of the same order, so even odds). Below zero, one
 * operation in {@link #PROBE_EVERY} tries anyway, so the score rises again when the reads turn to cached documents.
 * The counts are updated without synchronisation: a lost update only delays the switch by one try, and the callers
 * never contend on a lock.
 */
final class CachedReadOdds {

    /** How far the score goes either way: after a long run of misses, about this many hits bring the tries back. */
    static final int LIMIT = 64;
    /** While not worth it, every this-many-th operation still tries, to see whether the reads have turned cached. */
    static final int PROBE_EVERY = 8;

    private volatile int score = LIMIT; // a new store's reads are of what it was just written: cached
    private int skipped;

    /** Whether the next operation should try the cached read first; a probe counts as a try. */
    boolean worthTrying() {
        if (score >= 0) {
            return true;
        }
        int count = skipped + 1;
        skipped = count == PROBE_EVERY ? 0 : count;
        return count == PROBE_EVERY;
    }

    /** Records the result of a try: {@code hit} if it completed without a file read. */
    void tried(boolean hit) {
        int now = score;
        int next = hit ? Math.min(LIMIT, now + 1) : Math.max(-LIMIT, now - 1);
        if (next != now) { // at a limit, no write: callers on other cores keep reading their cached copy of the line
            score = next;
        }
    }

    /** The score now, for tests. */
    int score() {
        return score;
    }
}
