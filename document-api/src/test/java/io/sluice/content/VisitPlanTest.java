package io.sluice.content;

import io.sluice.document.BucketId;
import io.sluice.document.DocumentId;
import io.sluice.document.Slice;
import io.sluice.document.select.DocumentSelection;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VisitPlanTest {

    private static VisitPlan plan(VisitSpec.Builder spec, int distributionBits) {
        return VisitPlan.of(spec.build(), distributionBits);
    }

    private static KeyRange superbucket(long cursor, int distributionBits) {
        long first = cursor << (64 - distributionBits);
        return new KeyRange(first, first + (1L << (64 - distributionBits)) - 1);
    }

    @Test
    void unitAt_start_isFirstSuperbucket() {
        assertEquals(Optional.of(superbucket(0, 8)), plan(VisitSpec.builder(), 8).unitAt(DocumentKey.bucketStart(0)));
    }

    @Test
    void unitAt_documentKey_isItsSuperbucketInVisitingOrder() {
        DocumentId id = DocumentId.of("id:ns:mytype::1"); // superbucket 0xc4 with 8 bits: cursor 35
        assertEquals(35, BucketId.superbucket(id, 8).visitingCursor(8));
        assertEquals(Optional.of(superbucket(35, 8)), plan(VisitSpec.builder(), 8).unitAt(DocumentKey.of(id)));
        assertEquals(Optional.of(superbucket(35, 8)),
                     plan(VisitSpec.builder().slice(Slice.of(16, 2)), 8).unitAt(DocumentKey.of(id))); // [32, 48)
    }

    @Test
    void unitAt_lastSuperbucket_endsAtLargestKey() {
        KeyRange last = plan(VisitSpec.builder(), 4).unitAt(DocumentKey.bucketStart(-1L)).orElseThrow();
        assertEquals(-1L, last.last());
        assertTrue(last.end().isEmpty());
    }

    @Test
    void unitAt_beforeTheSlice_isItsFirstSuperbucket_withinIt_theNext() {
        VisitPlan plan = plan(VisitSpec.builder().slice(Slice.of(3, 1)), 8); // cursors [85, 170)
        assertEquals(Optional.of(superbucket(85, 8)), plan.unitAt(DocumentKey.bucketStart(0)));
        assertEquals(Optional.of(superbucket(100, 8)), plan.unitAt(superbucket(100, 8).start()));
        assertEquals(Optional.of(superbucket(169, 8)), plan.unitAt(superbucket(168, 8).end().orElseThrow()));
        assertEquals(Optional.of(superbucket(170, 8)),
                     plan(VisitSpec.builder().slice(Slice.of(3, 2)), 8).unitAt(superbucket(3, 8).start()));
    }

    @Test
    void unitAt_pastTheSlicesRun_isEmpty() {
        VisitPlan plan = plan(VisitSpec.builder().slice(Slice.of(3, 0)), 2); // cursor 0 of 4
        assertEquals(Optional.of(superbucket(0, 2)), plan.unitAt(DocumentKey.bucketStart(0)));
        assertEquals(Optional.empty(), plan.unitAt(superbucket(1, 2).start()));
        assertEquals(Optional.empty(), plan(VisitSpec.builder().slice(Slice.of(3, 1)), 8) // cursors [85, 170)
                .unitAt(superbucket(169, 8).end().orElseThrow()));
    }

    @Test
    void unitAt_emptySlice_isEmpty_andFinished() {
        VisitPlan plan = plan(VisitSpec.builder().slice(Slice.of(5, 0)), 1); // 2 superbuckets, 5 slices
        assertEquals(Optional.empty(), plan.unitAt(DocumentKey.bucketStart(0)));
        assertEquals(100.0, plan.percentFinished(DocumentKey.bucketStart(0)));
    }

    @Test
    void percentFinished_countsSuperbucketsBehindPosition() {
        VisitPlan plan = plan(VisitSpec.builder(), 4);
        assertEquals(0.0, plan.percentFinished(DocumentKey.bucketStart(0)));
        assertEquals(25.0, plan.percentFinished(superbucket(4, 4).start()));
        assertEquals(25.0, plan.percentFinished(new DocumentKey(superbucket(4, 4).first() + 5, "id:a:b::c")));
    }

    @Test
    void percentFinished_ofASlice_countsOnlyItsOwnRun() {
        VisitPlan plan = plan(VisitSpec.builder().slice(Slice.of(4, 3)), 4); // cursors [12, 16)
        assertEquals(0.0, plan.percentFinished(DocumentKey.bucketStart(0)));
        assertEquals(50.0, plan.percentFinished(superbucket(14, 4).start()));
        assertEquals(75.0, plan.percentFinished(new DocumentKey(superbucket(15, 4).first() + 5, "id:a:b::c")));
    }

    @Test
    void explicitBuckets_walkOnlyThoseRanges() {
        VisitPlan plan = plan(VisitSpec.builder().selection(DocumentSelection.parse("id.user == 5")), 8);
        assertTrue(plan.hasExplicitBuckets());
        KeyRange range = plan.unitAt(DocumentKey.bucketStart(0)).orElseThrow();
        assertEquals(BucketId.of(32, 5).orderKey(), range.first());
        assertEquals(range.first() + (1L << 32) - 1, range.last());
        assertEquals(Optional.empty(), plan.unitAt(range.end().orElseThrow()));
    }

    @Test
    void explicitBuckets_ignoreSlice() {
        VisitPlan plan = plan(VisitSpec.builder().selection(DocumentSelection.parse("id.user == 5"))
                                       .slice(Slice.of(7, 6)), 8);
        assertTrue(plan.unitAt(DocumentKey.bucketStart(0)).isPresent());
    }

    @Test
    void explicitBuckets_overlapping_areMerged() {
        DocumentId id = DocumentId.of("id:ns:t:n=5:x");
        VisitPlan plan = plan(VisitSpec.builder().selection(
                DocumentSelection.parse("id.user == 5 or id == '" + id + "'")), 8);
        KeyRange range = plan.unitAt(DocumentKey.bucketStart(0)).orElseThrow();
        assertEquals(BucketId.of(32, 5).orderKey(), range.first());
        assertEquals(0.0, plan.percentFinished(DocumentKey.of(id)));
        assertEquals(100.0, plan.percentFinished(range.end().orElseThrow()));
    }

    @Test
    void explicitBuckets_progressIsShareOfRangesBehind() {
        VisitPlan plan = plan(VisitSpec.builder().selection(DocumentSelection.parse("id.user == 1 or id.user == 2")),
                              8);
        KeyRange first = plan.unitAt(DocumentKey.bucketStart(0)).orElseThrow();
        assertEquals(50.0, plan.percentFinished(first.end().orElseThrow()));
    }

    @Test
    void explicitBuckets_none_finishesAtOnce() {
        VisitPlan plan = plan(VisitSpec.builder().selection(DocumentSelection.parse("id.user == 1 and id.user == 2")),
                              8);
        assertEquals(Optional.empty(), plan.unitAt(DocumentKey.bucketStart(0)));
        assertEquals(100.0, plan.percentFinished(DocumentKey.bucketStart(0)));
    }

    @Test
    void start_isTokenPosition() {
        DocumentKey position = DocumentKey.bucketStart(12345);
        ProgressToken token = ProgressToken.of(8, Slice.ALL, BucketSpace.DEFAULT, position);
        assertEquals(position, plan(VisitSpec.builder().progress(token), 8).start());
    }

    @Test
    void of_tokenForOtherSlice_throwsTyped() {
        ProgressToken token = ProgressToken.of(8, Slice.of(2, 0), BucketSpace.DEFAULT, DocumentKey.bucketStart(0));
        assertThrows(InvalidProgressTokenException.class,
                     () -> plan(VisitSpec.builder().progress(token).slice(Slice.of(2, 1)), 8));
    }

    @Test
    void token_carriesPlanIdentity() {
        VisitPlan plan = plan(VisitSpec.builder().slice(Slice.of(2, 1)).bucketSpace(BucketSpace.GLOBAL), 8);
        ProgressToken token = plan.token(DocumentKey.bucketStart(7));
        assertEquals(ProgressToken.of(8, Slice.of(2, 1), BucketSpace.GLOBAL, DocumentKey.bucketStart(7)), token);
        assertFalse(token.position().id().length() > 0);
    }

}
