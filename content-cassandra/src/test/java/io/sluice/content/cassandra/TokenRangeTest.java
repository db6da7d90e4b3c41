package io.sluice.content.cassandra;

import io.sluice.document.Slice;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenRangeTest {

    @Test
    void slices_followEachOtherFromTheSmallestToTheLargestToken() {
        for (int slices : new int[] { 1, 2, 3, 7, 8, 1000, Integer.MAX_VALUE }) {
            assertEquals(Long.MIN_VALUE, TokenRange.of(Slice.of(slices, 0)).start(), slices + " slices");
            assertEquals(Long.MAX_VALUE, TokenRange.of(Slice.of(slices, slices - 1)).end(), slices + " slices");
            for (int i = 0; i + 1 < slices && i < 1000; i++) {
                assertEquals(TokenRange.of(Slice.of(slices, i)).end(), TokenRange.of(Slice.of(slices, i + 1)).start());
            }
        }
    }

    @Test
    void slices_areEqualSplits() {
        assertEquals(new TokenRange(Long.MIN_VALUE, Long.MAX_VALUE), TokenRange.of(Slice.ALL));
        assertEquals(new TokenRange(Long.MIN_VALUE, -1), TokenRange.of(Slice.of(2, 0)));
        assertEquals(new TokenRange(-1, Long.MAX_VALUE), TokenRange.of(Slice.of(2, 1)));
    }

    @Test
    void contains_excludesTheStartAndIncludesTheEnd() {
        TokenRange range = new TokenRange(-10, 10);
        assertFalse(range.contains(-10));
        assertTrue(range.contains(-9));
        assertTrue(range.contains(10));
        assertFalse(range.contains(11));
        assertTrue(TokenRange.of(Slice.ALL).contains(Long.MAX_VALUE));
    }

    @Test
    void percentAt_growsFromZeroAndStaysBelowHundred() {
        TokenRange all = TokenRange.of(Slice.ALL);
        assertEquals(0, all.percentAt(Long.MIN_VALUE + 1), 1e-9);
        assertEquals(50, all.percentAt(0), 1e-9);
        assertEquals(99.999, all.percentAt(Long.MAX_VALUE));
        assertEquals(25, new TokenRange(0, 100).percentAt(25), 1e-9);
    }

    @Test
    void emptyRange_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new TokenRange(5, 5));
    }

}
