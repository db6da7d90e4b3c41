package io.sluice.content;

import io.sluice.document.FieldSet;
import io.sluice.document.Slice;
import io.sluice.document.select.DocumentSelection;

import java.util.Objects;
import java.util.Optional;

/**
 * What a visit returns: the documents of one bucket space that match a selection, within a slice and a time range,
 * filtered by a field set, optionally with tombstones, starting after the progress a token records. Immutable; made
 * with {@link #builder()}.
 *
 * <p>A selection whose {@linkplain DocumentSelection#bucketConstraint() bucket constraint} names explicit buckets
 * (from {@code id.user}, {@code id.group}, {@code id} or {@code id.bucket} terms) makes the visit touch only those
 * buckets, and then slicing is ignored: every slice returns those documents.
 */
public final class VisitSpec {

    private final BucketSpace bucketSpace;
    private final DocumentSelection selection;
    private final FieldSet fieldSet;
    private final Slice slice;
    private final TimeRange timeRange;
    private final boolean includeRemoves;
    private final ProgressToken progress;

    private VisitSpec(Builder builder) {
        this.bucketSpace = builder.bucketSpace;
        this.selection = builder.selection;
        this.fieldSet = builder.fieldSet;
        this.slice = builder.slice;
        this.timeRange = builder.timeRange;
        this.includeRemoves = builder.includeRemoves;
        this.progress = builder.progress;
    }

    /** A builder for a visit of everything in the default space, all fields, no tombstones, from the start. */
    public static Builder builder() {
        return new Builder();
    }

    public BucketSpace bucketSpace() {
        return bucketSpace;
    }

    /** The selection documents (and tombstones) must match; empty means everything. */
    public Optional<DocumentSelection> selection() {
        return Optional.ofNullable(selection);
    }

    public FieldSet fieldSet() {
        return fieldSet;
    }

    public Slice slice() {
        return slice;
    }

    public TimeRange timeRange() {
        return timeRange;
    }

    /** Whether tombstones of removed documents are returned too. */
    public boolean includeRemoves() {
        return includeRemoves;
    }

    /** Where to resume; empty means from the start. */
    public Optional<ProgressToken> progress() {
        return Optional.ofNullable(progress);
    }

    @Override
    public String toString() {
        return "visit(space " + bucketSpace.wireName() + (selection == null ? "" : ", selection '" + selection + "'")
               + ", slice " + slice.sliceId() + "/" + slice.slices() + ", " + timeRange
               + (includeRemoves ? ", with removes" : "") + (progress == null ? "" : ", from " + progress) + ")";
    }

    /** Collects the parts of a {@link VisitSpec}; not thread-safe. */
    public static final class Builder {

        private BucketSpace bucketSpace = BucketSpace.DEFAULT;
        private DocumentSelection selection;
        private FieldSet fieldSet = FieldSet.all();
        private Slice slice = Slice.ALL;
        private TimeRange timeRange = TimeRange.ALL;
        private boolean includeRemoves;
        private ProgressToken progress;

        private Builder() { }

        public Builder bucketSpace(BucketSpace bucketSpace) {
            this.bucketSpace = Objects.requireNonNull(bucketSpace, "bucketSpace");
            return this;
        }

        public Builder selection(DocumentSelection selection) {
            this.selection = Objects.requireNonNull(selection, "selection");
            return this;
        }

        public Builder fieldSet(FieldSet fieldSet) {
            this.fieldSet = Objects.requireNonNull(fieldSet, "fieldSet");
            return this;
        }

        public Builder slice(Slice slice) {
            this.slice = Objects.requireNonNull(slice, "slice");
            return this;
        }

        public Builder timeRange(TimeRange timeRange) {
            this.timeRange = Objects.requireNonNull(timeRange, "timeRange");
            return this;
        }

        public Builder includeRemoves(boolean includeRemoves) {
            this.includeRemoves = includeRemoves;
            return this;
        }

        /** Resume from {@code progress}; the backend checks it fits this visit's slice and space. */
        public Builder progress(ProgressToken progress) {
            this.progress = Objects.requireNonNull(progress, "progress");
            return this;
        }

        public VisitSpec build() {
            return new VisitSpec(this);
        }

    }

}
