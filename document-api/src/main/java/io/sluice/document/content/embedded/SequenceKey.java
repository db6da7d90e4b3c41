package io.sluice.document.content.embedded;

import io.sluice.document.DocumentId;
import io.sluice.document.content.BucketSpace;

/** What operations are sequenced by: one document in one bucket space. */
record SequenceKey(BucketSpace space, DocumentId id) {
}
