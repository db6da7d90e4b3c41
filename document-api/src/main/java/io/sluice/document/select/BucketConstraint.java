package io.sluice.document.select;

import io.sluice.document.BucketId;
import io.sluice.document.DocumentId;
import io.sluice.document.IllegalDocumentIdException;
import io.sluice.document.select.Expression.And;
import io.sluice.document.select.Expression.Comparison;
import io.sluice.document.select.Expression.ComparisonOperator;
import io.sluice.document.select.Expression.Id;
import io.sluice.document.select.Expression.Literal;
import io.sluice.document.select.Expression.Or;

import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The buckets a selection can match documents in, derived from its {@code id.user == N}, {@code id.group == "g"},
 * {@code id == "<id>"} and {@code id.bucket == B} terms: an {@code and} keeps the buckets both sides allow, an
 * {@code or} the union when both sides are constrained. Anything else (including {@code not}) leaves the selection
 * unconstrained. A visit needs to touch only buckets that {@link #mayMatch(BucketId) may match}; since the buckets
 * are explicit, slicing does not apply to such a visit.
 */
public final class BucketConstraint {

    private static final BucketConstraint UNCONSTRAINED = new BucketConstraint(null);
    /** Used bits of the bucket implied by a location: the 32 location bits. */
    private static final int LOCATION_BITS = 32;

    private final Set<BucketId> buckets;

    private BucketConstraint(Set<BucketId> buckets) {
        this.buckets = buckets == null ? null : Set.copyOf(buckets);
    }

    /** The constraint implied by {@code expression}. */
    public static BucketConstraint of(Expression expression) {
        if (expression instanceof Comparison) {
            return ofComparison((Comparison) expression);
        }
        if (expression instanceof And) {
            BucketConstraint result = UNCONSTRAINED;
            for (Expression operand : ((And) expression).operands()) {
                result = result.intersect(of(operand));
            }
            return result;
        }
        if (expression instanceof Or) {
            Set<BucketId> union = new LinkedHashSet<>();
            for (Expression operand : ((Or) expression).operands()) {
                BucketConstraint constraint = of(operand);
                if (constraint.buckets == null) {
                    return UNCONSTRAINED;
                }
                union.addAll(constraint.buckets);
            }
            return new BucketConstraint(union);
        }
        return UNCONSTRAINED;
    }

    private static BucketConstraint ofComparison(Comparison comparison) {
        if (comparison.operator() != ComparisonOperator.EQ) {
            return UNCONSTRAINED;
        }
        Expression left = comparison.left();
        Expression right = comparison.right();
        if (left instanceof Literal && right instanceof Id) {
            Expression swap = left;
            left = right;
            right = swap;
        }
        if (!(left instanceof Id) || !(right instanceof Literal)) {
            return UNCONSTRAINED;
        }
        Object value = ((Literal) right).value();
        switch (((Id) left).part()) {
            case USER:
                return value instanceof Long ? exactly(BucketId.of(LOCATION_BITS, (Long) value)) : UNCONSTRAINED;
            case GROUP:
                return value instanceof String ? exactly(BucketId.of(LOCATION_BITS, groupLocation((String) value)))
                                               : UNCONSTRAINED;
            case BUCKET:
                if (!(value instanceof Long)) {
                    return UNCONSTRAINED;
                }
                if (!BucketId.isRaw((Long) value)) {
                    return new BucketConstraint(Set.of()); // more used bits than any bucket has: no document is in it
                }
                return exactly(BucketId.ofRaw((Long) value));
            case WHOLE:
                if (value instanceof String) {
                    try {
                        return exactly(BucketId.of(DocumentId.of((String) value)).withUsedBits(LOCATION_BITS));
                    } catch (IllegalDocumentIdException e) {
                        return new BucketConstraint(Set.of()); // no document has a malformed id
                    }
                }
                return UNCONSTRAINED;
            default:
                return UNCONSTRAINED;
        }
    }

    /** Same as {@link DocumentId#location()} for an id with {@code g=group}. */
    private static long groupLocation(String group) {
        return Values.md5Long(group);
    }

    private static BucketConstraint exactly(BucketId bucket) {
        return new BucketConstraint(Set.of(bucket));
    }

    /** Buckets allowed by both: for each pair, the more specific one if one contains the other. */
    private BucketConstraint intersect(BucketConstraint other) {
        if (buckets == null) {
            return other;
        }
        if (other.buckets == null) {
            return this;
        }
        Set<BucketId> result = new LinkedHashSet<>();
        for (BucketId a : buckets) {
            for (BucketId b : other.buckets) {
                if (a.contains(b)) {
                    result.add(b);
                } else if (b.contains(a)) {
                    result.add(a);
                }
            }
        }
        return new BucketConstraint(result);
    }

    /** The explicit buckets, or empty if the selection does not restrict buckets. An empty set matches nothing. */
    public Optional<Set<BucketId>> buckets() {
        return Optional.ofNullable(buckets);
    }

    /** Whether the selection places no bucket restriction. */
    public boolean isUnconstrained() {
        return buckets == null;
    }

    /** Whether documents in {@code bucket} (a superbucket or a document's own bucket) may match. */
    public boolean mayMatch(BucketId bucket) {
        if (buckets == null) {
            return true;
        }
        for (BucketId allowed : buckets) {
            if (allowed.contains(bucket) || bucket.contains(allowed)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the document with {@code id} may match. */
    public boolean mayMatch(DocumentId id) {
        return buckets == null || mayMatch(BucketId.of(id));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof BucketConstraint && Objects.equals(((BucketConstraint) other).buckets, buckets);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(buckets);
    }

    @Override
    public String toString() {
        return buckets == null ? "BucketConstraint(unconstrained)" : "BucketConstraint" + buckets;
    }

}
