package io.sluice.document;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SliceTest {

    @Test
    void indexOf_isTheContiguousRunHoldingTheSpecExamplesCursor() {
        DocumentId id = DocumentId.of("id:ns:mytype::1"); // cursor 35 of 256 with 8 bits, 9043 of 65536 with 16
        assertEquals(2, Slice.indexOf(id, 16, 8));        // slice 2 of 16 holds cursors [32, 48)
        assertEquals(0, Slice.indexOf(id, 4, 8));         // [0, 64)
        assertEquals(0, Slice.indexOf(id, 7, 16));        // [0, 9362)
        assertEquals(1, Slice.indexOf(id, 8, 16));        // [8192, 16384)
    }

    @Test
    void slices_areContiguousRunsCoveringEveryCursorOnce_differingInLengthByAtMostOne() {
        for (int bits = 1; bits <= 7; bits++) {
            long superbuckets = 1L << bits;
            for (int slices = 1; slices <= 2 * superbuckets + 3; slices++) {
                long next = 0, shortest = Long.MAX_VALUE, longest = 0;
                for (int id = 0; id < slices; id++) {
                    Slice slice = Slice.of(slices, id);
                    assertEquals(next, slice.firstCursor(bits), slices + " slices, slice " + id);
                    next = slice.endCursor(bits);
                    shortest = Math.min(shortest, next - slice.firstCursor(bits));
                    longest = Math.max(longest, next - slice.firstCursor(bits));
                    for (long cursor = slice.firstCursor(bits); cursor < next; cursor++) {
                        assertEquals(id, Slice.indexOfCursor(cursor, slices, bits), "cursor " + cursor);
                        assertTrue(slice.containsCursor(cursor, bits));
                    }
                }
                assertEquals(superbuckets, next, slices + " slices of " + bits + " bits");
                assertTrue(longest - shortest <= 1, slices + " slices of " + bits + " bits");
            }
        }
    }

    @Test
    void slices_atTheLargestSizes_doNotOverflow() {
        int slices = Integer.MAX_VALUE;
        Slice last = Slice.of(slices, slices - 1);
        assertEquals(1L << 32, last.endCursor(32));
        assertTrue(last.firstCursor(32) < last.endCursor(32));
        assertEquals(slices - 1, Slice.indexOfCursor((1L << 32) - 1, slices, 32));
        assertEquals(0, Slice.indexOfCursor(0, slices, 32));
        assertEquals(0, Slice.of(1, 0).firstCursor(32));
        assertEquals(1L << 32, Slice.of(1, 0).endCursor(32));
    }

    @Test
    void moreSlicesThanSuperbuckets_leavesSomeEmpty() {
        assertEquals(Slice.of(5, 0).firstCursor(1), Slice.of(5, 0).endCursor(1));
        assertEquals(0, java.util.stream.IntStream.range(0, 5)
                                                  .filter(id -> Slice.of(5, id).containsCursor(0, 1)
                                                                && Slice.of(5, id).containsCursor(1, 1)).count());
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
        Slice slice = Slice.of(3, (int) (cursor * 3 / 256));
        assertTrue(slice.containsCursor(cursor, 8));
        assertTrue(slice.contains(id, 8));
    }

    @Test
    void new_sliceIdOutOfRange_isRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Slice.of(3, 3));
        assertEquals("sliceId must be in [0, 3), but was 3", e.getMessage());
    }

}
