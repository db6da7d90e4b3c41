package io.sluice.document.select;

import io.sluice.document.BucketId;
import io.sluice.document.DocumentId;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BucketConstraintTest {

    private static BucketConstraint constraint(String selection) {
        return DocumentSelection.parse(selection).bucketConstraint();
    }

    private static BucketId locationBucket(String id) {
        return BucketId.of(DocumentId.of(id)).withUsedBits(32);
    }

    @Test
    void idUser_isItsLocationBucket() {
        assertEquals(Optional.of(Set.of(BucketId.of(32, 18))), constraint("id.user == 18").buckets());
    }

    @Test
    void idUser_literalOnLeft_isItsLocationBucket() {
        assertEquals(Optional.of(Set.of(BucketId.of(32, 18))), constraint("18 == id.user").buckets());
    }

    @Test
    void idGroup_isBucketOfGroupIds() {
        assertEquals(Optional.of(Set.of(locationBucket("id:ns:mytype:g=yahoo.com:spec"))),
                     constraint("id.group == \"yahoo.com\"").buckets());
    }

    @Test
    void fullId_isBucketOfThatId() {
        assertEquals(Optional.of(Set.of(locationBucket("id:ns:mytype::1"))),
                     constraint("id == 'id:ns:mytype::1'").buckets());
    }

    @Test
    void malformedFullId_matchesNothing() {
        assertEquals(Optional.of(Set.of()), constraint("id == 'nope'").buckets());
    }

    @Test
    void idBucket_isThatBucket() {
        assertEquals(Optional.of(Set.of(BucketId.ofRaw(0x40000000000000c4L))),
                     constraint("id.bucket == 0x40000000000000c4").buckets());
    }

    @Test
    void idBucketWithMoreUsedBitsThanABucketCanHave_matchesNothing() {
        // Found by ParserFuzzTest#selection: parsing this threw IllegalArgumentException instead of constraining.
        assertEquals(Optional.of(Set.of()), constraint("id.bucket == 0xfc00000000000000").buckets());
        assertEquals(Optional.of(Set.of()), constraint("id.bucket == -1").buckets());
    }

    @Test
    void and_withUnconstrainedSide_keepsConstraint() {
        assertEquals(Optional.of(Set.of(BucketId.of(32, 5))),
                     constraint("(music) and (id.namespace=='space') and (id.user==5)").buckets());
    }

    @Test
    void and_ofDifferentUsers_isEmpty() {
        assertEquals(Optional.of(Set.of()), constraint("id.user == 5 and id.user == 6").buckets());
    }

    @Test
    void and_ofContainingBuckets_keepsMoreSpecific() {
        assertEquals(Optional.of(Set.of(BucketId.of(32, 0x1c4))),
                     constraint("id.bucket == 0x20000000000000c4 and id.user == 0x1c4").buckets());
    }

    @Test
    void or_ofConstrainedSides_isUnion() {
        assertEquals(Optional.of(Set.of(BucketId.of(32, 5), BucketId.of(32, 6))),
                     constraint("id.user == 5 or id.user == 6").buckets());
    }

    @Test
    void or_withUnconstrainedSide_isUnconstrained() {
        assertTrue(constraint("id.user == 5 or music").isUnconstrained());
    }

    @Test
    void not_isUnconstrained() {
        assertTrue(constraint("not id.user == 5").isUnconstrained());
    }

    @Test
    void otherOperators_areUnconstrained() {
        assertTrue(constraint("id.user != 5").isUnconstrained());
        assertTrue(constraint("id.group = 'a*'").isUnconstrained());
        assertTrue(constraint("").isUnconstrained());
    }

    @Test
    void mayMatch_superbucketOfMatchingDocuments() {
        BucketConstraint constraint = constraint("id.user == 18");
        assertTrue(constraint.mayMatch(BucketId.superbucket(DocumentId.of("id:ns:t:n=18:a"), 16)));
        assertFalse(constraint.mayMatch(BucketId.superbucket(DocumentId.of("id:ns:t:n=19:a"), 16)));
    }

    @Test
    void mayMatch_documentsOfTheUser() {
        BucketConstraint constraint = constraint("id.user == 18");
        assertTrue(constraint.mayMatch(DocumentId.of("id:ns:t:n=18:a")));
        assertFalse(constraint.mayMatch(DocumentId.of("id:ns:t:n=19:a")));
    }

    @Test
    void mayMatch_agreesWithEvaluationForGroups() {
        DocumentSelection selection = DocumentSelection.parse("id.group == 'g7'");
        for (int i = 0; i < 50; i++) {
            DocumentId id = DocumentId.of("id:ns:t:g=g" + i + ":x");
            boolean matches = selection.matches(SelectionContext.of(id, java.util.Map.of()),
                                                java.time.Clock.systemUTC());
            assertEquals(matches, selection.bucketConstraint().mayMatch(id), id.toString());
        }
    }

}
