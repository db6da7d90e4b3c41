package io.sluice.content.memory;

import io.sluice.content.DocumentKey;

/**
 * Where one document's newest {@link StoredEntry} lives: in both of a bucket space's maps, the hash map operations
 * find it in by id and the sorted map visits walk. Overwriting a document replaces the entry here and touches neither
 * map. Only operations on the document (one at a time: under its lock, or in its sequencer's order) write it, and
 * only they take a slot out of the maps; visits read it.
 */
final class Slot {

    private final DocumentKey key;
    private volatile StoredEntry entry;

    Slot(DocumentKey key, StoredEntry entry) {
        this.key = key;
        this.entry = entry;
    }

    DocumentKey key() {
        return key;
    }

    StoredEntry entry() {
        return entry;
    }

    void set(StoredEntry entry) {
        this.entry = entry;
    }

}
