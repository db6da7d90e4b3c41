package io.sluice.feed;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What to visit: a content cluster, optionally narrowed to a namespace and document type (the
 * {@code /document/v1/<namespace>/<type>/docid/} path, which update-where needs), a selection, a field set, a bucket
 * space and a time range in microseconds; and how: in {@code slices} slices, with {@code timeout} per request,
 * streamed ({@code stream=true}, the default) or in pages, asking for {@code wantedDocumentCount} documents per response
 * (unbounded when streamed, unless given).
 */
public record VisitParameters(String cluster, Optional<String> namespace, Optional<String> documentType,
                              Optional<String> selection, Optional<String> fieldSet, Optional<String> bucketSpace,
                              OptionalLong fromTimestamp, OptionalLong toTimestamp, int slices, Duration timeout,
                              boolean stream, OptionalInt wantedDocumentCount) {

    public VisitParameters {
        if (cluster == null || cluster.isEmpty()) throw new IllegalArgumentException("A content cluster must be given");
        if (namespace.isPresent() != documentType.isPresent())
            throw new IllegalArgumentException("Namespace and document type must be given together");
        if (slices < 1) throw new IllegalArgumentException("Slices must be positive, but was " + slices);
        if (timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("Timeout must be positive, but was " + timeout);
        if (wantedDocumentCount.isPresent() && wantedDocumentCount.getAsInt() < 1)
            throw new IllegalArgumentException("Wanted document count must be positive, but was " + wantedDocumentCount.getAsInt());
    }

    /** As the canonical constructor, streamed, without a wanted document count. */
    public VisitParameters(String cluster, Optional<String> namespace, Optional<String> documentType,
                           Optional<String> selection, Optional<String> fieldSet, Optional<String> bucketSpace,
                           OptionalLong fromTimestamp, OptionalLong toTimestamp, int slices, Duration timeout) {
        this(cluster, namespace, documentType, selection, fieldSet, bucketSpace, fromTimestamp, toTimestamp, slices,
             timeout, true, OptionalInt.empty());
    }

    /** The whole cluster, in one slice, 60 s per request. */
    public static VisitParameters of(String cluster) {
        return new VisitParameters(cluster, Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                                   Optional.empty(), OptionalLong.empty(), OptionalLong.empty(), 1, Duration.ofSeconds(60));
    }

    public VisitParameters withSelection(String selection) {
        return new VisitParameters(cluster, namespace, documentType, Optional.of(selection), fieldSet, bucketSpace,
                                   fromTimestamp, toTimestamp, slices, timeout, stream, wantedDocumentCount);
    }

    public VisitParameters withSlices(int slices) {
        return new VisitParameters(cluster, namespace, documentType, selection, fieldSet, bucketSpace,
                                   fromTimestamp, toTimestamp, slices, timeout, stream, wantedDocumentCount);
    }

    public VisitParameters withCluster(String cluster) {
        return new VisitParameters(cluster, namespace, documentType, selection, fieldSet, bucketSpace,
                                   fromTimestamp, toTimestamp, slices, timeout, stream, wantedDocumentCount);
    }

    /** The bucket space to visit, or empty for the server's choice: the document type's, or {@code default}. */
    public VisitParameters withBucketSpace(Optional<String> bucketSpace) {
        return new VisitParameters(cluster, namespace, documentType, selection, fieldSet, bucketSpace,
                                   fromTimestamp, toTimestamp, slices, timeout, stream, wantedDocumentCount);
    }

    /** Streamed ({@code stream=true}) or paged responses, each asking for {@code wantedDocumentCount} documents if given. */
    public VisitParameters withPaging(boolean stream, OptionalInt wantedDocumentCount) {
        return new VisitParameters(cluster, namespace, documentType, selection, fieldSet, bucketSpace,
                                   fromTimestamp, toTimestamp, slices, timeout, stream, wantedDocumentCount);
    }

    /** The path and query of a request for {@code sliceId}, from {@code continuation} if present. */
    String pathAndQuery(int sliceId, Optional<String> continuation, boolean visit) {
        StringBuilder path = new StringBuilder("/document/v1/");
        if (namespace.isPresent()) {
            UrlEncoding.append(path, namespace.get()).append('/');
            UrlEncoding.append(path, documentType.get()).append("/docid/");
        }
        UrlEncoding.append(path.append("?cluster="), cluster);
        selection.ifPresent(s -> UrlEncoding.append(path.append("&selection="), s));
        if (visit) {
            fieldSet.ifPresent(f -> UrlEncoding.append(path.append("&fieldSet="), f));
            if (stream) path.append("&stream=true");
            wantedDocumentCount.ifPresent(n -> path.append("&wantedDocumentCount=").append(n));
        }
        bucketSpace.ifPresent(b -> UrlEncoding.append(path.append("&bucketSpace="), b));
        fromTimestamp.ifPresent(t -> path.append("&fromTimestamp=").append(Long.toUnsignedString(t)));
        toTimestamp.ifPresent(t -> path.append("&toTimestamp=").append(Long.toUnsignedString(t)));
        if (slices > 1) path.append("&slices=").append(slices).append("&sliceId=").append(sliceId);
        continuation.ifPresent(c -> UrlEncoding.append(path.append("&continuation="), c));
        path.append("&timeout=").append(timeout.toMillis()).append("ms");
        return path.toString();
    }

}
