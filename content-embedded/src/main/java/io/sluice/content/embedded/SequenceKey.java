package io.sluice.content.embedded;

import io.sluice.document.DocumentId;
import io.sluice.content.BucketSpace;

/** What operations are sequenced by: one document in one bucket space. */
record SequenceKey(BucketSpace space, DocumentId id) {
}
