package io.sluice.document;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BucketIdTest {

    @ParameterizedTest
    @CsvSource({
            "id:ns:mytype::1,                  e96b22a03842cac4",
            "id:ns:mytype::2,                  e8222c758d721ec8",
            "id:ns:mytype:n=18:spec,           eb3089a300000012",
            "id:ns:mytype:g=yahoo.com:spec,    eb82f2be9a1acd50",
            "id:ns2:mytype:g=yahoo.com:spec2,  ebff6e379a1acd50",
    })
    void of_documentId_matchesVespaVectors(String id, String hex) {
        assertEquals(Long.parseUnsignedLong(hex, 16), BucketId.of(DocumentId.of(id)).raw());
    }

    @Test
    void toString_isVespaFormat() {
        assertEquals("BucketId(0xe96b22a03842cac4)", BucketId.of(DocumentId.of("id:ns:mytype::1")).toString());
    }

    @Test
    void globalId_startsWithLittleEndianLocation() {
        byte[] gid = DocumentId.of("id:ns:mytype:n=18:spec").globalId().bytes();
        assertArrayEquals(HexFormat.of().parseHex("12000000"), java.util.Arrays.copyOf(gid, 4));
    }

    @Test
    void superbucket_keepsLowLocationBits() {
        BucketId superbucket = BucketId.superbucket(DocumentId.of("id:ns:mytype::1"), 16);
        assertEquals("BucketId(0x400000000000cac4)", superbucket.toString());
    }

    @Test
    void superbucket_sameGroup_isShared() {
        assertEquals(BucketId.superbucket(DocumentId.of("id:ns:mytype:g=yahoo.com:spec"), 16),
                     BucketId.superbucket(DocumentId.of("id:ns2:mytype:g=yahoo.com:spec2"), 16));
    }

    @Test
    void contains_subBucket_isTrue() {
        BucketId bucket = BucketId.of(DocumentId.of("id:ns:mytype::1"));
        assertTrue(bucket.withUsedBits(8).contains(bucket));
        assertTrue(bucket.contains(bucket));
    }

    @Test
    void contains_superBucketOrSibling_isFalse() {
        BucketId bucket = BucketId.of(DocumentId.of("id:ns:mytype::1"));
        assertFalse(bucket.contains(bucket.withUsedBits(8)));
        assertFalse(BucketId.of(8, 0xc5).contains(bucket));
    }

    @Test
    void ofRaw_roundTrips() {
        assertEquals(0xe96b22a03842cac4L, BucketId.ofRaw(0xe96b22a03842cac4L).raw());
        assertEquals(58, BucketId.ofRaw(0xe96b22a03842cac4L).usedBits());
    }

    @Test
    void of_tooManyUsedBits_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> BucketId.of(59, 0));
    }

    @Test
    void visitingCursor_isBitReversedSuperbucket() {
        BucketId bucket = BucketId.of(DocumentId.of("id:ns:mytype::1"));
        assertEquals(35, bucket.visitingCursor(8));
        assertEquals(9043, bucket.visitingCursor(16));
    }

    @Test
    void nthInVisitingOrder_invertsCursor() {
        assertEquals(BucketId.of(16, 0xcac4), BucketId.nthInVisitingOrder(9043, 16));
        assertEquals("BucketId(0x4000000000006cc0)", BucketId.nthInVisitingOrder(822, 16).toString());
    }

    @Test
    void orderKey_followsVisitingOrderOfSuperbuckets() {
        for (int n = 0; n < 255; n++) {
            BucketId current = BucketId.nthInVisitingOrder(n, 8);
            BucketId next = BucketId.nthInVisitingOrder(n + 1, 8);
            assertTrue(Long.compareUnsigned(current.orderKey(), next.orderKey()) < 0, "cursor " + n);
        }
    }

    @Test
    void orderKey_ofDocumentBucket_fallsInItsSuperbucketRange() {
        for (int i = 0; i < 200; i++) {
            BucketId bucket = BucketId.of(DocumentId.of("id:ns:t::" + i));
            BucketId superbucket = bucket.withUsedBits(8);
            long offset = bucket.orderKey() - superbucket.orderKey();
            assertTrue(Long.compareUnsigned(offset, 1L << 56) < 0, bucket.toString());
        }
    }

}
