package io.sluice.content.cassandra;

import io.sluice.content.cassandra.harness.SharedNode;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.FieldSet;
import io.sluice.document.PrimitiveType;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A keyspace remembers the distribution bits its documents were placed with, and refuses to open with others. */
@Tag("cassandra")
class DistributionBitsTest {

    private static final DocumentType MUSIC = DocumentType.builder("music").field("title", PrimitiveType.STRING)
                                                          .build();
    private static final DocumentTypes TYPES = DocumentTypes.of(List.of(MUSIC));
    private static final DocumentId ID = DocumentId.of("id:ns:music::placed");

    @Test
    void reopeningWithOtherDistributionBits_isRefused_andTheRecordedBitsStillFindTheDocuments() throws Exception {
        CassandraOptions options = CassandraOptions.defaults("bits", 1)
                                                   .withContactPoints(List.of(SharedNode.get().nativeAddress()))
                                                   .withDistributionBits(14);
        try (CassandraContentBackend backend = CassandraContentBackend.open(options, TYPES)) {
            Outcome put = backend.put(Document.of(MUSIC, ID), options()).get(1, TimeUnit.MINUTES);
            assertTrue(put.isSuccess(), put.toString());
        }

        InvalidCassandraOptionException refused = assertThrows(
                InvalidCassandraOptionException.class,
                () -> CassandraContentBackend.open(options.withDistributionBits(16), TYPES).close());
        assertEquals("distribution-bits is 16, but keyspace 'sluice_bits' was set up with distribution-bits 14, "
                     + "which place its documents: with another value they would not be found. Set "
                     + "distribution-bits to 14, or use a new keyspace", refused.getMessage());

        try (CassandraContentBackend backend = CassandraContentBackend.open(options, TYPES)) {
            Outcome get = backend.get(ID, FieldSet.all(), options()).get(1, TimeUnit.MINUTES);
            assertTrue(get.document().isPresent(), get.toString());
        }
    }

    private static OperationOptions options() {
        return OperationOptions.until(Instant.now().plusSeconds(30));
    }

}
