package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import io.sluice.document.DocumentException;
import io.sluice.document.FieldSet;
import io.sluice.document.Slice;
import io.sluice.content.BucketSpace;
import io.sluice.content.InvalidProgressTokenException;
import io.sluice.content.ProgressToken;
import io.sluice.content.TimeRange;
import io.sluice.document.json.TensorFormat;
import io.sluice.document.select.DocumentSelection;
import org.eclipse.jetty.http.HttpStatus;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Collectors;

/**
 * The parameters of a request on a selection of documents (routes 1–4), checked by the rules of spec §1.4 and §1.5.
 * Every bad value is an {@link HttpStatusException} 400 naming it, with Vespa's text where clients depend on it.
 *
 * @param cluster             the content cluster visited
 * @param bucketSpace         the type's space when the path names a type, else {@code bucketSpace}, else default
 * @param userSelection       the {@code selection} parameter as given, parsed
 * @param selection           the effective selection (spec §6.1): {@code selection} and the path's constraints
 * @param fieldSet            the fields to return
 * @param continuation        where to resume
 * @param wantedDocumentCount the least number of documents a page should hold; empty for unbounded
 * @param concurrency         the {@code concurrency} parameter, at least 1
 * @param stream              whether the response is streamed
 * @param slice               the {@code slices}/{@code sliceId} pair
 * @param timeRange           the backend timestamps to return, from {@code fromTimestamp}/{@code toTimestamp}
 * @param includeRemoves      whether tombstones are returned too
 * @param tensorFormat        how tensors are rendered
 * @param timeChunk           the longest page of a copy, update-where or delete-where
 */
record VisitParameters(ContentClusters.Cluster cluster, BucketSpace bucketSpace,
                       Optional<DocumentSelection> userSelection, Optional<DocumentSelection> selection,
                       FieldSet fieldSet, Optional<ProgressToken> continuation, OptionalInt wantedDocumentCount,
                       int concurrency, boolean stream, Slice slice, TimeRange timeRange, boolean includeRemoves,
                       TensorFormat tensorFormat, Duration timeChunk) {

    /** Pages of copy, update-where and delete-where last at most this long unless {@code timeChunk} says otherwise. */
    static final Duration DEFAULT_TIME_CHUNK = Duration.ofSeconds(60);

    VisitParameters {
        Objects.requireNonNull(cluster, "cluster");
        Objects.requireNonNull(bucketSpace, "bucketSpace");
        Objects.requireNonNull(userSelection, "userSelection");
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(fieldSet, "fieldSet");
        Objects.requireNonNull(continuation, "continuation");
        Objects.requireNonNull(wantedDocumentCount, "wantedDocumentCount");
        Objects.requireNonNull(slice, "slice");
        Objects.requireNonNull(timeRange, "timeRange");
        Objects.requireNonNull(tensorFormat, "tensorFormat");
        Objects.requireNonNull(timeChunk, "timeChunk");
    }

    /** The parameters of a GET visit (spec §1.4). */
    static VisitParameters forVisit(DocumentRequest request, ContentClusters clusters) {
        RequestParameters parameters = request.parameters();
        ContentClusters.Cluster cluster = visitedCluster(request, clusters);
        boolean stream = parameters.bool("stream").orElse(false);
        OptionalInt wanted = positive(parameters, "wantedDocumentCount");
        if (wanted.isEmpty() && ! stream)
            wanted = OptionalInt.of(1);
        int concurrency = positive(parameters, "concurrency").orElse(1);
        if (concurrency > 1 && CONCURRENCY_WARNED.compareAndSet(false, true))
            log.warn("Visit parameter 'concurrency' ({}) is accepted and ignored, here and in later visits: a Sluice visit "
                     + "reads one batch at a time per slice, which decides only its speed, not what it returns; use "
                     + "'slices' to visit in parallel", concurrency);
        return common(request, clusters, cluster, parameters.string("selection"), wanted, concurrency, stream);
    }

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(VisitParameters.class);
    private static final java.util.concurrent.atomic.AtomicBoolean CONCURRENCY_WARNED = new java.util.concurrent.atomic.AtomicBoolean();

    /**
     * The parameters of a copy, update-where or delete-where (spec §1.5): {@code cluster} and {@code selection} are
     * required, and {@code concurrency}, {@code fieldSet}, {@code route} and {@code wantedDocumentCount} disallowed.
     */
    static VisitParameters forSelectionOperation(DocumentRequest request, ContentClusters clusters) {
        RequestParameters parameters = request.parameters();
        String pathId = request.pathId();
        ContentClusters.Cluster cluster = clusters.named(parameters.require(pathId, "cluster"));
        parameters.disallow(pathId, "concurrency", "fieldSet", "route", "wantedDocumentCount");
        String selection = parameters.require(pathId, "selection");
        return common(request, clusters, cluster, Optional.of(selection), OptionalInt.empty(), 1, false);
    }

    private static VisitParameters common(DocumentRequest request, ContentClusters clusters,
                                          ContentClusters.Cluster cluster, Optional<String> selectionText,
                                          OptionalInt wanted, int concurrency, boolean stream) {
        RequestParameters parameters = request.parameters();
        DocumentPath path = request.path();
        path.documentType().ifPresent(type -> {
            if ( ! cluster.stores(type))
                throw ContentClusters.noSuchType(type, cluster);
        });
        Optional<DocumentSelection> userSelection = selectionText.map(text -> parseSelection(text, clusters));
        String effective = effectiveSelection(selectionText, path);
        Optional<DocumentSelection> selection = effective.isEmpty() ? Optional.empty()
                                                                    : Optional.of(DocumentSelection.parse(effective));
        FieldSet fieldSet = fieldSet(parameters.string("fieldSet")
                                               .orElse(path.documentType().map(type -> type + ":[document]")
                                                           .orElse("[document]")),
                                     clusters);
        BucketSpace space = path.documentType().map(cluster::bucketSpace)
                                .orElseGet(() -> parameters.string("bucketSpace").map(VisitParameters::bucketSpace)
                                                           .orElse(BucketSpace.DEFAULT));
        return new VisitParameters(cluster, space, userSelection, selection, fieldSet,
                                   parameters.string("continuation").map(VisitParameters::token),
                                   wanted, concurrency, stream, slice(parameters), timeRange(parameters),
                                   parameters.bool("includeRemoves").orElse(false), tensorFormat(parameters),
                                   parameters.duration("timeChunk").orElse(DEFAULT_TIME_CHUNK));
    }

    /**
     * The cluster a GET visit reads: the named one; else, below the root, the only one.
     *
     * @throws HttpStatusException 400 with the texts of spec §1.4 for an unknown cluster ({@code vespa visit}
     *                             discovers clusters by asking for {@code *}), a missing one at the root, or a
     *                             missing one when there are several
     */
    static ContentClusters.Cluster visitedCluster(DocumentRequest request, ContentClusters clusters) {
        Optional<String> name = request.parameters().string("cluster");
        if (name.isPresent())
            return clusters.named(name.get());
        if (request.path().route() == Route.ROOT)
            throw badRequest("Must set 'cluster' parameter to a valid content cluster id when visiting at a root "
                             + "/document/v1/ level");
        List<ContentClusters.Cluster> all = clusters.all();
        if (all.size() == 1)
            return all.get(0);
        if (all.isEmpty())
            throw badRequest("Your Vespa deployment has no content clusters");
        throw badRequest("Please specify one of the content clusters in your Vespa deployment: "
                         + all.stream().map(c -> "'" + c.id() + "'").collect(Collectors.joining(", ")));
    }

    /**
     * Spec §6.1: the present parts of {@code (selection) and (type) and (id.namespace=='ns') and (group or number)},
     * each in parentheses; empty when there are none.
     */
    static String effectiveSelection(Optional<String> selection, DocumentPath path) {
        List<String> parts = new ArrayList<>();
        selection.ifPresent(parts::add);
        path.documentType().ifPresent(parts::add);
        path.namespace().ifPresent(namespace -> parts.add("id.namespace=='" + quoted(namespace) + "'"));
        path.group().ifPresent(group -> parts.add("id.group=='" + quoted(group) + "'"));
        if (path.number().isPresent())
            parts.add("id.user==" + Long.toUnsignedString(path.number().getAsLong()));
        return parts.isEmpty() ? "" : "(" + String.join(") and (", parts) + ")";
    }

    /** Escapes for a single-quoted selection string literal. */
    private static String quoted(String value) {
        return value.replace("\\", "\\\\").replace("'", "\\'");
    }

    /**
     * Parses the {@code selection} parameter and checks the document types and fields it names against the
     * application's: a misspelt name fails here instead of silently matching nothing.
     */
    private static DocumentSelection parseSelection(String selection, ContentClusters clusters) {
        DocumentSelection parsed = DocumentSelection.parse(selection); // a DocumentException is a 400 (Failures)
        parsed.validate(clusters.selectionSchema());
        return parsed;
    }

    private static FieldSet fieldSet(String spec, ContentClusters clusters) {
        return FieldSet.parse(spec, clusters.types()); // a DocumentException is a 400 (Failures)
    }

    private static BucketSpace bucketSpace(String name) {
        for (BucketSpace space : BucketSpace.values())
            if (space.wireName().equals(name))
                return space;
        throw badRequest("Bucket space '" + name + "' is not a known bucket space; expected one of default, global");
    }

    /** Parses a continuation token; a corrupt or forged one is the client's error. */
    private static ProgressToken token(String token) {
        try {
            return ProgressToken.parse(token);
        }
        catch (InvalidProgressTokenException e) {
            throw badRequest(e.getMessage());
        }
    }

    private static OptionalInt positive(RequestParameters parameters, String name) {
        Optional<Integer> value = parameters.integer(name);
        if (value.isEmpty())
            return OptionalInt.empty();
        if (value.get() <= 0)
            throw badRequest(name + " must be positive");
        return OptionalInt.of(value.get());
    }

    private static Slice slice(RequestParameters parameters) {
        if (parameters.has("slices") != parameters.has("sliceId"))
            throw badRequest("None or both of 'slices' and 'sliceId' must be set");
        if ( ! parameters.has("slices"))
            return Slice.ALL;
        int slices = parameters.integer("slices").orElseThrow();
        int sliceId = parameters.integer("sliceId").orElseThrow();
        if (slices < 1)
            throw badRequest("slices must be positive, but was " + slices);
        if (sliceId < 0 || sliceId >= slices)
            throw badRequest("sliceId must be in [0, " + slices + "), but was " + sliceId);
        return Slice.of(slices, sliceId);
    }

    /** {@code [fromTimestamp, toTimestamp]}, unsigned microseconds, where {@code toTimestamp} 0 means unbounded. */
    private static TimeRange timeRange(RequestParameters parameters) {
        long from = parameters.unsignedLong("fromTimestamp").orElse(0);
        long to = parameters.unsignedLong("toTimestamp").orElse(0);
        if (to != 0 && Long.compareUnsigned(to, from) < 0)
            throw badRequest("toTimestamp must be greater than, or equal to, fromTimestamp");
        // Backend timestamps are non-negative longs: unsigned values beyond that bound nothing more.
        long signedFrom = from < 0 ? Long.MAX_VALUE : from;
        long signedTo = to == 0 || to < 0 ? Long.MAX_VALUE : to;
        return TimeRange.of(signedFrom, signedTo);
    }

    private static TensorFormat tensorFormat(RequestParameters parameters) {
        Optional<String> value = parameters.string("format.tensors");
        if (value.isEmpty())
            return TensorFormat.SHORT;
        try {
            return TensorFormat.fromParameter(value.get());
        }
        catch (DocumentException e) {
            throw badRequest(e.getMessage());
        }
    }

    private static HttpStatusException badRequest(String message) {
        return new HttpStatusException(HttpStatus.BAD_REQUEST_400, message);
    }

}
