package io.sluice.document;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SliceTest {

    @Test
    void indexOf_followsSpecExample() {
        DocumentId id = DocumentId.of("id:ns:mytype::1");
        assertEquals(35 % 4, Slice.indexOf(id, 4, 8));
        assertEquals(9043 % 7, Slice.indexOf(id, 7, 16));
    }

    @Test
    void contains_everyDocumentInExactlyOneSlice() {
        int slices = 5;
        int[] counts = new int[slices];
        for (int i = 0; i < 2000; i++) {
            DocumentId id = DocumentId.of("id:ns:t::doc-" + i);
            int found = 0;
            for (int s = 0; s < slices; s++) {
                if (Slice.of(slices, s).contains(id, 16)) {
                    found++;
                    counts[s]++;
                }
            }
            assertEquals(1, found, id.toString());
        }
        for (int count : counts) {
            assertTrue(count > 0);
        }
    }

    @Test
    void contains_isStableAcrossCalls() {
        DocumentId id = DocumentId.of("id:ns:t::stable");
        int first = Slice.indexOf(id, 3, 8);
        assertEquals(first, Slice.indexOf(DocumentId.of("id:ns:t::stable"), 3, 8));
    }

    @Test
    void contains_sameGroup_sameSlice() {
        assertEquals(Slice.indexOf(DocumentId.of("id:a:t:g=g1:x"), 7, 16),
                     Slice.indexOf(DocumentId.of("id:b:u:g=g1:y"), 7, 16));
    }

    @Test
    void all_containsEverything() {
        assertTrue(Slice.ALL.contains(DocumentId.of("id:ns:t::x"), 8));
    }

    @Test
    void containsCursor_matchesDocumentSlice() {
        DocumentId id = DocumentId.of("id:ns:t::cursor");
        long cursor = BucketId.of(id).visitingCursor(8);
        Slice slice = Slice.of(3, (int) (cursor % 3));
        assertTrue(slice.containsCursor(cursor));
        assertTrue(slice.contains(id, 8));
    }

    @Test
    void new_sliceIdOutOfRange_isRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Slice.of(3, 3));
        assertEquals("sliceId must be in [0, 3), but was 3", e.getMessage());
    }

}
