package io.sluice.content.memory;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.content.Version;

/**
 * The newest version of one document: the document itself, or a tombstone ({@code document == null}).
 *
 * @param bytes estimated size, counted against the store's byte limit (0 for tombstones)
 */
record StoredEntry(DocumentId id, DocumentType type, Document document, long timestamp, long bytes) implements Version {

    static StoredEntry live(Document document, long timestamp, long bytes) {
        return new StoredEntry(document.id(), document.type(), document, timestamp, bytes);
    }

    static StoredEntry tombstone(DocumentId id, DocumentType type, long timestamp) {
        return new StoredEntry(id, type, null, timestamp, 0);
    }

    @Override
    public boolean isLive() {
        return document != null;
    }

}
