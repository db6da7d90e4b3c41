package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import io.sluice.container.Json;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import io.sluice.content.InvalidProgressTokenException;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.ProgressToken;
import io.sluice.content.Visit;
import io.sluice.content.VisitEntry;
import io.sluice.content.VisitSpec;
import io.sluice.document.json.DocumentUpdateJsonReader;
import io.sluice.document.json.ParsedUpdate;
import io.sluice.document.select.DocumentSelection;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Response;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * {@link VisitRoutes} over the clusters' {@link io.sluice.content.ContentBackend}s: GET visits as pages
 * ({@link PagedVisitResponse}) or streams ({@link StreamedVisitResponse}), and copy, update-where and delete-where as
 * pages of {@link WhereOperations}. Every visit start checks the handler's {@link Admission} (so overload is a 429), and the visit is cancelled when the request ends for any reason, the client going away included.
 */
public final class BackendVisitRoutes implements VisitRoutes {

    /** What the visit time budget leaves of the request's remaining time at least (spec §6.3). */
    private static final Duration BUDGET_MARGIN = Duration.ofSeconds(5);

    private final DocumentApiContext context;
    private final DocumentUpdateJsonReader updateReader;

    public BackendVisitRoutes(DocumentApiContext context) {
        this.context = Objects.requireNonNull(context, "context");
        this.updateReader = context.config().ignoreUndefinedFields() ? DocumentUpdateJsonReader.lenient(context.clusters().types())
                                                                     : DocumentUpdateJsonReader.strict(context.clusters().types());
    }

    @Override
    public void visit(DocumentRequest request) {
        VisitParameters parameters = VisitParameters.forVisit(request, context.clusters());
        boolean jsonLines = parameters.stream() && AcceptHeader.prefersJsonLines(accept(request));
        VisitSpec spec = spec(parameters, parameters.fieldSet());
        Duration budget = budget(request);
        Instant end = context.clock().instant().plus(budget); // time spent queued counts too
        request.trace().note(1, "Visiting cluster '" + parameters.cluster().id() + "': " + spec);
        admit(request, () -> {
            Visit visit = open(parameters, spec);
            if (parameters.stream())
                stream(request, parameters, visit, jsonLines, end);
            else
                page(request, parameters, visit, budget, end);
        });
    }

    @Override
    public void copy(DocumentRequest request) {
        String destinationId = request.parameters().require(request.pathId(), "destinationCluster");
        ContentClusters.Cluster destination = context.clusters().named(destinationId);
        VisitParameters parameters = VisitParameters.forSelectionOperation(request, context.clusters());
        request.path().documentType().ifPresent(type -> {
            if ( ! destination.stores(type))
                throw ContentClusters.noSuchType(type, destination);
        });
        OperationOptions options = OperationOptions.until(request.backendDeadline());
        run(request, parameters, FieldSet.all(), "copy", Map.of(), entry -> {
            String type = entry.id().documentType();
            if ( ! destination.stores(type))
                return CompletableFuture.completedFuture(Outcome.error("Document type '" + type + "' is not stored in destination cluster '"
                                                                       + destination.id() + "'"));
            return destination.backend().put(entry.document().orElseThrow(), options.withBucketSpace(destination.bucketSpace(type)));
        });
    }

    @Override
    public void updateWhere(DocumentRequest request) {
        VisitParameters parameters = VisitParameters.forSelectionOperation(request, context.clusters());
        DocumentPath path = request.path();
        DocumentId template = DocumentId.of("id:" + path.namespace().orElseThrow() + ":" + path.documentType().orElseThrow()
                                            + "::update-where"); // a DocumentException is a 400 (Failures)
        OperationOptions options = conditional(request, parameters);
        request.exchange().readingBody(BodyReader.read(request.exchange().request(), context.config().maxDocumentSize(),
                                                       context.bodies())).whenComplete((body, failure) -> {
            if (failure != null) {
                Failures.respond(request, failure, "reading the body of an update-where");
                return;
            }
            try {
                body.release(); // parsed into an update before this returns; the bytes are not kept
                updateWhere(request, parameters, template, options, body);
            }
            catch (RuntimeException | Error e) {
                Failures.respond(request, e, "starting an update-where");
            }
        });
    }

    private void updateWhere(DocumentRequest request, VisitParameters parameters, DocumentId template,
                             OperationOptions options, BodyReader.Body body) {
        context.metrics().bytesReceived(body.length());
        ParsedUpdate parsed = updateReader.readUpdate(template, body.bytes(), 0, body.length());
        DocumentUpdate update = parsed.update().withCreateIfNonExistent(parsed.create().orElse(false));
        Map<String, String> headers = parsed.hasIgnoredFields() ? SingleDocumentOperations.IGNORED_FIELDS : Map.of();
        run(request, parameters, FieldSet.none(), "update-where", headers,
            entry -> parameters.cluster().backend().update(update.withId(entry.id()), options));
    }

    @Override
    public void deleteWhere(DocumentRequest request) {
        VisitParameters parameters = VisitParameters.forSelectionOperation(request, context.clusters());
        OperationOptions options = conditional(request, parameters);
        run(request, parameters, FieldSet.none(), "delete-where", Map.of(),
            entry -> parameters.cluster().backend().remove(entry.id(), options));
    }

    /**
     * Spec §6.3: {@code max(1 ms, max(remaining - 5 s, 0.9 remaining - 100 ms))} of the time left until the
     * request's deadline.
     */
    static Duration budget(Duration remaining) {
        Duration lessMargin = remaining.minus(BUDGET_MARGIN);
        Duration share = Duration.ofNanos((long) (remaining.toNanos() * 0.9)).minusMillis(100);
        Duration budget = lessMargin.compareTo(share) > 0 ? lessMargin : share;
        return budget.compareTo(Duration.ofMillis(1)) > 0 ? budget : Duration.ofMillis(1);
    }

    private Duration budget(DocumentRequest request) {
        return budget(Duration.between(context.clock().instant(), request.deadline()));
    }

    private static String accept(DocumentRequest request) {
        List<String> values = request.exchange().request().getHeaders().getValuesList(HttpHeader.ACCEPT);
        return values.isEmpty() ? null : String.join(",", values);
    }

    private static VisitSpec spec(VisitParameters parameters, FieldSet fields) {
        VisitSpec.Builder spec = VisitSpec.builder().bucketSpace(parameters.bucketSpace()).fieldSet(fields)
                                          .slice(parameters.slice()).timeRange(parameters.timeRange())
                                          .includeRemoves(parameters.includeRemoves());
        parameters.selection().ifPresent(spec::selection);
        parameters.continuation().ifPresent(spec::progress);
        return spec.build();
    }

    /** Starts the visit; a token made for another slice or bucket space is the client's error. */
    private static Visit open(VisitParameters parameters, VisitSpec spec) {
        try {
            return parameters.cluster().backend().visit(spec);
        }
        catch (InvalidProgressTokenException e) {
            throw new HttpStatusException(HttpStatus.BAD_REQUEST_400, e.getMessage());
        }
    }

    /**
     * Starts the visit unless operations already wait too long ({@link Admission#check}); failures of {@code start}
     * answer the request. The visit then paces itself, bounded by the handler's visit slots.
     */
    private void admit(DocumentRequest request, Runnable start) {
        try {
            context.admission().check();
        }
        catch (HttpStatusException e) {
            request.fail(e);
            return;
        }
        startSafely(request, start);
    }

    private static void startSafely(DocumentRequest request, Runnable start) {
        try {
            start.run();
        }
        catch (RuntimeException | Error e) {
            Failures.respond(request, e, "starting a visit for");
        }
    }

    private void page(DocumentRequest request, VisitParameters parameters, Visit visit, Duration budget, Instant end) {
        PagedVisitResponse page = new PagedVisitResponse(VisitFormat.json(request.pathId(), parameters.tensorFormat()),
                                                         parameters.wantedDocumentCount().orElse(1));
        PageDriver driver = PageDriver.start(visit, page, parameters.continuation(), context.clock(),
                                             end, context.scheduler(), context.visits());
        request.exchange().whenDone(status -> driver.expire()); // the client is gone, or the deadline passed
        request.exchange().whenCompleted(driver::releaseMemory); // the rendered page is sent
        driver.result().thenAccept(ended -> {
            context.metrics().visitedDocuments("visit", page.documentCount());
            request.trace().note(1, "Visited " + ended.batches() + " batches, " + page.documentCount() + " documents");
            answer(request, () -> page.reply(ended, request.trace(), budget), Map.of());
        });
    }

    private void stream(DocumentRequest request, VisitParameters parameters, Visit visit, boolean jsonLines, Instant end) {
        Exchange exchange = request.exchange();
        if ( ! exchange.takeOver(HttpStatus.OK_200)) {
            visit.cancel();
            return;
        }
        VisitFormat format = jsonLines ? VisitFormat.jsonLines(parameters.tensorFormat())
                                       : VisitFormat.json(request.pathId(), parameters.tensorFormat());
        Response response = exchange.response();
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, format.contentType());
        StreamedVisitResponse stream = new StreamedVisitResponse(visit, parameters.continuation(), response, exchange.callback(),
                                                                 format, parameters.wantedDocumentCount().orElse(Integer.MAX_VALUE),
                                                                 context.clock(), end, request.trace(), context.metrics()::bytesSent,
                                                                 context.visits(), exchange.writeWatch());
        Runnable cancelTimer = context.scheduler().schedule(stream::expire, Duration.between(context.clock().instant(), end));
        // Without any continuation to end with, a stream waits for the backend until the request's deadline, then
        // is cut off: a truncated body is how a client learns that a committed response failed.
        TimeoutException timedOut = new TimeoutException("Visit timed out after " + request.timeout().toMillis() + "ms");
        Runnable cancelAbort = context.scheduler().schedule(() -> stream.abort(timedOut),
                                                            Duration.between(context.clock().instant(), request.deadline()));
        stream.done().whenComplete((ignored, failure) -> {
            cancelTimer.run();
            cancelAbort.run();
            context.metrics().visitedDocuments("visit", stream.documentCount());
        });
        exchange.request().addFailureListener(stream::abort);
        stream.iterate();
    }

    /** Runs a page of a copy, update-where or delete-where, applying {@code operation} to every visited document. */
    private void run(DocumentRequest request, VisitParameters parameters, FieldSet fields, String kind,
                     Map<String, String> headers, Function<VisitEntry, CompletableFuture<Outcome>> operation) {
        VisitSpec spec = spec(parameters, fields);
        Duration budget = budget(request);
        Duration pageTime = parameters.timeChunk().compareTo(budget) < 0 ? parameters.timeChunk() : budget;
        Instant pageEnd = context.clock().instant().plus(pageTime);
        request.trace().note(1, kind + " in cluster '" + parameters.cluster().id() + "': " + spec);
        admit(request, () -> {
            WhereOperations operations = new WhereOperations(operation);
            PageDriver driver = PageDriver.start(open(parameters, spec), operations, parameters.continuation(),
                                                 context.clock(), pageEnd, context.scheduler(), context.visits());
            request.exchange().whenDone(status -> driver.expire());
            driver.result().thenAccept(end -> {
                context.metrics().visitedDocuments(kind, operations.documentCount());
                answer(request, () -> selectionReply(request, end, operations.documentCount(), pageTime), headers);
            });
        });
    }

    /**
     * {@code {"pathId","documentCount"[,"trace"][,"message"][,"continuation"]}}: 200, or 500 on failure (spec §6.6).
     * When the visit finds the content layer unavailable, the page is a 503 if it did nothing yet, else a 200 with the
     * continuation after the batches it did (see {@link PageDriver.End#reportedFailure()}): either way a
     * client retrying repeats no operation. An operation that fails (even as unavailable) stays a 500.
     */
    private static DocumentResponses.Reply selectionReply(DocumentRequest request, PageDriver.End end, int count, Duration pageTime) {
        int status = HttpStatus.OK_200;
        Optional<String> message = end.reportedFailure();
        if (message.isPresent())
            status = end.failureStatus();
        else if (end.expired() && end.batches() == 0) {
            status = HttpStatus.GATEWAY_TIMEOUT_504;
            message = Optional.of("No buckets visited within timeout of " + pageTime.toMillis() + "ms");
        }
        Optional<String> continuation = status == HttpStatus.OK_200 ? end.continuation().map(ProgressToken::encoded)
                                                                    : Optional.empty();
        Optional<String> text = message;
        return new DocumentResponses.Reply(status, Json.write(json -> {
            json.writeStartObject();
            json.writeStringField("pathId", request.pathId());
            json.writeNumberField("documentCount", count);
            request.trace().write(json);
            if (text.isPresent())
                json.writeStringField("message", text.get());
            if (continuation.isPresent())
                json.writeStringField("continuation", continuation.get());
            json.writeEndObject();
        }));
    }

    private void answer(DocumentRequest request, Supplier<DocumentResponses.Reply> reply, Map<String, String> headers) {
        DocumentResponses.Reply rendered;
        try {
            rendered = reply.get();
        }
        catch (RuntimeException e) {
            rendered = Failures.reply(request.pathId(), e, "rendering the visit response for");
        }
        request.respond(rendered, rendered.status() == HttpStatus.OK_200 ? headers : Map.of());
    }

    /** Options for the operations of update-where and delete-where: the {@code selection} is their condition. */
    private static OperationOptions conditional(DocumentRequest request, VisitParameters parameters) {
        DocumentSelection condition = parameters.userSelection().orElseThrow();
        return OperationOptions.until(request.backendDeadline()).withBucketSpace(parameters.bucketSpace()).withCondition(condition);
    }

}
