package io.sluice.content;

import io.sluice.document.DocumentId;
import io.sluice.document.select.DocumentSelection;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The small value types of the SPI: their checks and messages. */
class SpiValuesTest {

    @Test
    void outcomeOf_success_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> Outcome.of(Outcome.Status.SUCCESS, ""));
    }

    @Test
    void outcomeMissing_isSuccessNotFound() {
        Outcome missing = Outcome.missing();
        assertTrue(missing.isSuccess());
        assertFalse(missing.found());
        assertEquals(0, missing.timestamp());
    }

    @Test
    void timeRange_toBeforeFrom_namesBoth() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TimeRange.of(5, 4));
        assertEquals("toTimestamp must be greater than, or equal to, fromTimestamp, but 4 < 5", e.getMessage());
    }

    @Test
    void timeRange_containsBothEnds() {
        TimeRange range = TimeRange.of(5, 7);
        assertTrue(range.contains(5) && range.contains(7));
        assertFalse(range.contains(4) || range.contains(8));
    }

    @Test
    void bucketSpace_unknownName_hasHandlersMessage() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                                  () -> BucketSpace.fromWireName("nope"));
        assertEquals("Bucket space 'nope' is not a known bucket space; expected one of default, global",
                     e.getMessage());
    }

    @Test
    void bucketSpace_wireNames_roundTrip() {
        for (BucketSpace space : BucketSpace.values()) {
            assertEquals(space, BucketSpace.fromWireName(space.wireName()));
        }
    }

    @Test
    void visitBatch_finishedBelow100_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new VisitBatch(List.of(), Optional.empty(), true, 99));
    }

    @Test
    void visitBatch_percentAbove100_isRefused() {
        ProgressToken token = ProgressToken.of(8, io.sluice.document.Slice.ALL, BucketSpace.DEFAULT,
                                               DocumentKey.bucketStart(0));
        assertThrows(IllegalArgumentException.class,
                     () -> new VisitBatch(List.of(), Optional.of(token), true, 100.5));
    }

    @Test
    void operationOptions_withers_keepOtherParts() {
        Instant deadline = Instant.parse("2026-01-01T00:00:00Z");
        OperationOptions options = OperationOptions.until(deadline)
                                                   .withCondition(DocumentSelection.parse("music"))
                                                   .withCreateIfNonExistent(true)
                                                   .withBucketSpace(BucketSpace.GLOBAL);
        assertEquals(deadline, options.deadline());
        assertEquals("music", options.condition().orElseThrow().toString());
        assertTrue(options.createIfNonExistent());
        assertEquals(BucketSpace.GLOBAL, options.bucketSpace());
        assertTrue(options.withoutCondition().condition().isEmpty());
    }

    @Test
    void visitEntry_remove_hasNoDocument() {
        VisitEntry entry = VisitEntry.remove(DocumentId.of("id:ns:music::a"), 5);
        assertTrue(entry.isRemove());
        assertTrue(entry.document().isEmpty());
    }

    @Test
    void keyRange_endBeforeStart_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new KeyRange(-1L, 0));
    }

}
