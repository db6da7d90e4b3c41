package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import io.sluice.document.Document;
import io.sluice.document.DocumentException;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentTypes;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import io.sluice.content.ContentBackend;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.json.DocumentJsonWriter;
import io.sluice.document.json.DocumentUpdateJsonReader;
import io.sluice.document.json.FieldsJson;
import io.sluice.document.json.ParsedPut;
import io.sluice.document.json.ParsedUpdate;
import io.sluice.document.json.TensorFormat;
import io.sluice.document.select.DocumentSelection;
import org.eclipse.jetty.http.HttpStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * GET, POST (put), PUT (update) and DELETE (remove) of one document (routes 5–7, spec §1.3): checks the parameters,
 * reads the body, admits the operation ({@link Admission}), parses it, calls the cluster's backend at once (backends
 * apply operations on one id in call order) and renders its outcome.
 */
final class SingleDocumentOperations {

    private static final Logger log = LoggerFactory.getLogger(SingleDocumentOperations.class);
    static final Map<String, String> IGNORED_FIELDS = Map.of("X-Vespa-Ignored-Fields", "true");
    /** Vespa's answer to a write no content cluster's document selection takes: 200, nothing written. */
    static final Map<String, String> IGNORED_OPERATION = Map.of("X-Vespa-Ignored-Operation", "true");

    private final DocumentApiContext context;
    private final DocumentJsonReader putReader;
    private final DocumentUpdateJsonReader updateReader;

    SingleDocumentOperations(DocumentApiContext context) {
        this.context = context;
        DocumentTypes types = context.clusters().types();
        boolean lenient = context.config().ignoreUndefinedFields();
        this.putReader = lenient ? DocumentJsonReader.lenient(types) : DocumentJsonReader.strict(types);
        this.updateReader = lenient ? DocumentUpdateJsonReader.lenient(types) : DocumentUpdateJsonReader.strict(types);
    }

    void get(DocumentRequest request) {
        RequestParameters parameters = request.parameters();
        parameters.disallow(request.pathId(), "dryRun");
        DocumentId id = request.path().documentId();
        ContentClusters.Cluster cluster = context.clusters().forDocumentType(id.documentType(), parameters.string("cluster"));
        FieldSet fieldSet = parameters.string("fieldSet").map(this::fieldSet).orElse(FieldSet.document());
        DocumentJsonWriter writer = DocumentJsonWriter.of(parameters.string("format.tensors").map(SingleDocumentOperations::tensorFormat)
                                                                    .orElse(TensorFormat.SHORT));
        OperationOptions options = options(request, cluster, id);
        enqueueReady(request, "get", id, () -> cluster.backend().get(id, fieldSet, options), outcome -> {
            if (outcome.isSuccess() && (outcome.fieldsJson().isPresent() || outcome.document().isPresent()))
                return DocumentResponses.found(request.pathId(), id, outcome, writer, request.trace());
            return DocumentResponses.outcome(request.pathId(), id, outcome, request.trace());
        });
    }

    void put(DocumentRequest request) {
        RequestParameters parameters = request.parameters();
        Optional<String> routed = writeCluster(parameters);
        Optional<String> condition = parameters.string("condition");
        Optional<Boolean> create = parameters.bool("create");
        DocumentId id = request.path().documentId();
        if (dryRun(request, id))
            return;
        List<ContentClusters.Cluster> clusters = context.clusters().forWrite(id.documentType(), routed);
        OperationOptions base = options(request, clusters.get(0), id);
        enqueueWithBody(request, "put", id, body -> {
            ParsedPut put = putReader.readPut(id, body.bytes(), 0, body.length());
            Optional<String> effectiveCondition = condition.or(put::condition);
            OperationOptions options = withCondition(base, effectiveCondition)
                    .withCreateIfNonExistent(create.or(put::create).orElse(false));
            Document document = put.document();
            FieldsJson fields = put.fieldsJson().orElse(null);
            List<ContentClusters.Cluster> keeping = taking(clusters, cluster -> cluster.keeps(document, context.clock()));
            return new Prepared(headers(keeping, put.hasIgnoredFields()),
                                () -> toEach(keeping, id, options,
                                             (cluster, own) -> cluster.backend().put(document, fields, own)));
        });
    }

    void update(DocumentRequest request) {
        RequestParameters parameters = request.parameters();
        Optional<String> routed = writeCluster(parameters);
        Optional<String> condition = parameters.string("condition");
        Optional<Boolean> create = parameters.bool("create");
        DocumentId id = request.path().documentId();
        if (dryRun(request, id))
            return;
        List<ContentClusters.Cluster> clusters = context.clusters().forWrite(id.documentType(), routed);
        OperationOptions base = options(request, clusters.get(0), id);
        enqueueWithBody(request, "update", id, body -> {
            ParsedUpdate parsed = updateReader.readUpdate(id, body.bytes(), 0, body.length());
            boolean effectiveCreate = create.or(parsed::create).orElse(false);
            // The parameter overrides the body both ways, so the update's own flag must match.
            DocumentUpdate update = parsed.update().withCreateIfNonExistent(effectiveCreate);
            OperationOptions options = withCondition(base, condition.or(parsed::condition))
                    .withCreateIfNonExistent(effectiveCreate);
            List<ContentClusters.Cluster> keeping = mayKeep(clusters, id);
            return new Prepared(headers(keeping, parsed.hasIgnoredFields()),
                                () -> toEach(keeping, id, options, (cluster, own) -> cluster.backend().update(update, own)));
        });
    }

    void remove(DocumentRequest request) {
        RequestParameters parameters = request.parameters();
        Optional<String> routed = writeCluster(parameters);
        Optional<String> condition = parameters.string("condition");
        DocumentId id = request.path().documentId();
        if (dryRun(request, id))
            return;
        List<ContentClusters.Cluster> clusters = context.clusters().forWrite(id.documentType(), routed);
        OperationOptions options = withCondition(options(request, clusters.get(0), id), condition);
        List<ContentClusters.Cluster> keeping = mayKeep(clusters, id);
        enqueueReady(request, "remove", id, () -> toEach(keeping, id, options, (cluster, own) -> cluster.backend().remove(id, own)),
                     outcome -> DocumentResponses.outcome(request.pathId(), id, outcome, request.trace()),
                     headers(keeping, false));
    }

    /** The clusters whose document selection may take an update or remove of {@code id}. */
    private List<ContentClusters.Cluster> mayKeep(List<ContentClusters.Cluster> clusters, DocumentId id) {
        return taking(clusters, cluster -> cluster.selection().isEmpty()
                                           || cluster.mayKeep(id, context.clusters().types().get(id.documentType()), context.clock()));
    }

    /** The clusters {@code takes} accepts: {@code clusters} itself, without allocating, when it accepts them all. */
    private static List<ContentClusters.Cluster> taking(List<ContentClusters.Cluster> clusters,
                                                        java.util.function.Predicate<ContentClusters.Cluster> takes) {
        for (int i = 0; i < clusters.size(); i++)
            if ( ! takes.test(clusters.get(i)))
                return clusters.stream().filter(takes).toList();
        return clusters;
    }

    /** The headers of a successful answer: an ignored operation, or ignored fields, or none. */
    private static Map<String, String> headers(List<ContentClusters.Cluster> targets, boolean ignoredFields) {
        return targets.isEmpty() ? IGNORED_OPERATION : ignoredFields ? IGNORED_FIELDS : Map.of();
    }

    /**
     * Applies a write to each of {@code clusters} (each in the bucket space its cluster keeps the type in) and answers
     * with their merged outcome ({@link #merged}); one cluster is called directly.
     */
    private static CompletableFuture<Outcome> toEach(List<ContentClusters.Cluster> clusters, DocumentId id, OperationOptions options,
                                                     BiFunction<ContentClusters.Cluster, OperationOptions, CompletableFuture<Outcome>> write) {
        if (clusters.isEmpty()) // no cluster's selection takes it: ignored, as Vespa does
            return CompletableFuture.completedFuture(Outcome.missing());
        if (clusters.size() == 1)
            return write.apply(clusters.get(0), options);
        List<CompletableFuture<Outcome>> outcomes = new ArrayList<>();
        for (ContentClusters.Cluster cluster : clusters)
            outcomes.add(write.apply(cluster, options.withBucketSpace(cluster.bucketSpace(id.documentType()))));
        return CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new))
                                .thenApply(__ -> merged(outcomes.stream().map(CompletableFuture::join).toList()));
    }

    /**
     * What a write to several clusters answers, as Vespa merges the replies of its default route: the first failure
     * (anything but success, not found and a failed condition), else the first failed condition, else a success that
     * found the document, else the first outcome.
     */
    static Outcome merged(List<Outcome> outcomes) {
        for (Outcome outcome : outcomes)
            if (outcome.status() != Outcome.Status.SUCCESS && outcome.status() != Outcome.Status.NOT_FOUND
                && outcome.status() != Outcome.Status.CONDITION_FAILED)
                return outcome;
        for (Outcome outcome : outcomes)
            if (outcome.status() == Outcome.Status.CONDITION_FAILED)
                return outcome;
        for (Outcome outcome : outcomes)
            if (outcome.isSuccess() && outcome.found())
                return outcome;
        for (Outcome outcome : outcomes)
            if (outcome.isSuccess())
                return outcome;
        return outcomes.get(0);
    }

    /**
     * The content cluster a write names, if any: by {@code route} ({@link ContentClusters#routed}) or by
     * {@code cluster} (which Vespa ignores on writes; here it routes as on a GET, so a name that is no content cluster
     * is a 400 instead of a write that went elsewhere). Both given must agree.
     */
    private Optional<String> writeCluster(RequestParameters parameters) {
        Optional<String> routed = parameters.string("route").flatMap(context.clusters()::routed);
        Optional<String> cluster = parameters.string("cluster");
        if (routed.isPresent() && cluster.isPresent() && ! routed.equals(cluster))
            throw new HttpStatusException(HttpStatus.BAD_REQUEST_400, "Parameters 'route' and 'cluster' name different "
                                          + "content clusters, '" + routed.get() + "' and '" + cluster.get() + "'");
        return routed.or(() -> cluster);
    }

    /** Answers a {@code dryRun=true} write at once, without reading the body or checking the type (spec §2.3). */
    private boolean dryRun(DocumentRequest request, DocumentId id) {
        if ( ! request.parameters().bool("dryRun").orElse(false))
            return false;
        request.trace().note(1, "Dry run: operation not performed");
        request.respond(DocumentResponses.success(HttpStatus.OK_200, request.pathId(), id, request.trace()));
        context.metrics().operation(request.method().toLowerCase(java.util.Locale.ROOT), "dry_run");
        return true;
    }

    private FieldSet fieldSet(String spec) {
        return FieldSet.parse(spec, context.clusters().types()); // a DocumentException is a 400 (Failures)
    }

    private static TensorFormat tensorFormat(String value) {
        return TensorFormat.fromParameter(value);
    }

    private static OperationOptions options(DocumentRequest request, ContentClusters.Cluster cluster, DocumentId id) {
        return OperationOptions.until(request.backendDeadline()).withBucketSpace(cluster.bucketSpace(id.documentType()));
    }

    /** Adds the parsed condition, whose document types and fields must be the application's. */
    private OperationOptions withCondition(OperationOptions options, Optional<String> condition) {
        if (condition.isEmpty())
            return options;
        try {
            DocumentSelection parsed = DocumentSelection.parse(condition.get());
            parsed.validate(context.clusters().selectionSchema());
            return options.withCondition(parsed);
        }
        catch (DocumentException e) {
            throw new HttpStatusException(HttpStatus.BAD_REQUEST_400, "Illegal condition '" + condition.get() + "': "
                                                                     + e.getMessage());
        }
    }

    /** A parsed operation, ready to call the backend. */
    private record Prepared(Map<String, String> headers, Supplier<CompletableFuture<Outcome>> call) { }

    /** Admits an operation without a body and calls the backend at once; a refusal answers the request. */
    private void enqueueReady(DocumentRequest request, String type, DocumentId id, Supplier<CompletableFuture<Outcome>> call,
                              Function<Outcome, DocumentResponses.Reply> render) {
        enqueueReady(request, type, id, call, render, Map.of());
    }

    private void enqueueReady(DocumentRequest request, String type, DocumentId id, Supplier<CompletableFuture<Outcome>> call,
                              Function<Outcome, DocumentResponses.Reply> render, Map<String, String> headers) {
        Admission.Permit permit = context.admission().admit(0, request.created().toEpochMilli()); // it arrived just now
        run(request, type, id, permit, null, call, render, headers);
    }

    /**
     * Reads the body first and admits the operation only once it has arrived, so slow bodies hold nothing that other
     * requests need (as Vespa, which enqueues when the request content closes). Operations on one id therefore reach
     * the backend, which applies them in that order, in the order their bodies complete.
     */
    private void enqueueWithBody(DocumentRequest request, String type, DocumentId id, Function<BodyReader.Body, Prepared> parse) {
        request.watchDeadline(); // the body may take its time
        request.exchange().readingBody(BodyReader.read(request.exchange().request(), context.config().maxDocumentSize(),
                                                       context.bodies())).whenComplete((body, failure) -> {
            if (failure != null) {
                Failures.respond(request, failure, "reading the body of " + type);
                return;
            }
            context.metrics().bytesReceived(body.length());
            try {
                admitRead(request, type, id, body, parse);
            }
            catch (RuntimeException | Error e) {
                body.release();
                Failures.respond(request, e, "admitting " + type);
            }
        });
    }

    private void admitRead(DocumentRequest request, String type, DocumentId id, BodyReader.Body body,
                           Function<BodyReader.Body, Prepared> parse) {
        if (request.exchange().isDone()) { // the client left, or the deadline passed, while the body arrived
            body.release();
            return;
        }
        Admission.Permit permit = context.admission().admit(body.length());
        Prepared prepared;
        try {
            prepared = parse.apply(body);
        }
        catch (RuntimeException | Error e) {
            permit.release();
            body.release();
            if (Failures.expected(e) != null)
                context.metrics().operation(type, "invalid");
            Failures.respond(request, e, "parsing " + type);
            return;
        }
        run(request, type, id, permit, body, prepared.call(),
            outcome -> DocumentResponses.outcome(request.pathId(), id, outcome, request.trace()),
            prepared.headers());
    }

    /**
     * Calls the backend and answers with its outcome; releases {@code permit} and the {@code body}'s memory (the
     * parsed operation is about as large) when the backend has answered.
     */
    private void run(DocumentRequest request, String type, DocumentId id, Admission.Permit permit, BodyReader.Body body,
                     Supplier<CompletableFuture<Outcome>> call, Function<Outcome, DocumentResponses.Reply> render,
                     Map<String, String> headers) {
        if (request.trace().isEnabled())
            request.trace().note(1, "Dispatching " + type + " of '" + id + "'");
        CompletableFuture<Outcome> outcome;
        try {
            outcome = call.get();
        }
        catch (RuntimeException e) {
            outcome = CompletableFuture.failedFuture(e);
        }
        if (outcome.isDone() && ! outcome.isCompletedExceptionally()) { // answered here, before anything could wait
            answer(request, type, permit, body, outcome.join(), null, render, headers);
            return;
        }
        permit.waiting();
        request.watchDeadline();
        outcome.whenComplete((result, failure) -> answer(request, type, permit, body, result, failure, render, headers));
    }

    /** Answers with the backend's {@code result}, or 500 for its {@code failure}; releases the permit and body. */
    private void answer(DocumentRequest request, String type, Admission.Permit permit, BodyReader.Body body,
                        Outcome result, Throwable failure, Function<Outcome, DocumentResponses.Reply> render,
                        Map<String, String> headers) {
        permit.release();
        if (body != null)
            body.release();
        if (failure != null) { // backends answer with outcomes: an exception here is a bug
            context.metrics().operation(type, "error");
            log.error("Backend {} for {} failed", type, request.pathId(), failure);
            request.respond(DocumentResponses.internalError(request.pathId()));
            return;
        }
        context.metrics().operation(type, outcomeName(result));
        if (request.exchange().isDone())
            return; // answered already (deadline, client gone): nothing to render
        if (request.trace().isEnabled())
            request.trace().note(1, "Backend answered " + result.status());
        DocumentResponses.Reply reply;
        try {
            reply = render.apply(result);
        }
        catch (RuntimeException e) {
            reply = Failures.reply(request.pathId(), e, "rendering " + result + " for");
        }
        request.respond(reply, result.isSuccess() ? headers : Map.of());
    }

    private static String outcomeName(Outcome outcome) {
        switch (outcome.status()) {
            case SUCCESS: return "succeeded";
            case NOT_FOUND: return "not_found";
            case CONDITION_FAILED: return "condition_not_met";
            case OVERLOAD: return "overload";
            case UNAVAILABLE: return "unavailable";
            case INSUFFICIENT_STORAGE: return "insufficient_storage";
            case TIMEOUT: return "timeout";
            case INVALID: return "invalid";
            default: return "error";
        }
    }

}
