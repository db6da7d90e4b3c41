package io.sluice.content.embedded;

import io.sluice.document.BucketId;
import io.sluice.document.DocumentId;

import java.nio.charset.StandardCharsets;

/**
 * The key of the document an operation is on: its id's UTF-8 bytes, which name it in the {@link DocumentCache}, and
 * its store key ({@link StoreKeys}), made from them when first needed. The store key starts with the bucket's order
 * key, which takes two MD5s of the id (its location and its global id), 0.5 us: a GET answered from the cache never
 * needs it.
 *
 * <p>Not thread-safe: an operation uses its key on one thread at a time (the caller's, then perhaps a store thread's,
 * handed over through an executor).
 */
final class StoreKey {

    private final DocumentId id;
    private byte[] idBytes;
    private byte[] bytes;

    StoreKey(DocumentId id) {
        this.id = id;
    }

    /** The UTF-8 bytes of the document's id. */
    byte[] idBytes() {
        if (idBytes == null) {
            idBytes = id.toString().getBytes(StandardCharsets.UTF_8);
        }
        return idBytes;
    }

    /** The document's key in the store. */
    byte[] bytes() {
        if (bytes == null) {
            bytes = StoreKeys.of(BucketId.of(id).orderKey(), idBytes());
        }
        return bytes;
    }

}
