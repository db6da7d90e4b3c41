package io.sluice.feed;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/** Turns operations into {@link HttpRequest}s for the {@link RequestStrategy}, and responses into {@link Result}s. */
final class HttpFeedClient implements FeedClient {

    private static final JsonFactory json = new JsonFactory();

    private final RequestStrategy strategy;
    private final StatsCollector stats;
    private final CircuitBreaker breaker;
    private final Compression compression;
    private final long defaultTimeoutNanos;
    private final boolean speedTest;
    private final Runnable onClose;

    HttpFeedClient(RequestStrategy strategy, StatsCollector stats, CircuitBreaker breaker, Compression compression,
                   Duration defaultTimeout, boolean speedTest, Runnable onClose) {
        this.strategy = strategy;
        this.stats = stats;
        this.breaker = breaker;
        this.compression = compression;
        this.defaultTimeoutNanos = defaultTimeout.toNanos();
        this.speedTest = speedTest;
        this.onClose = onClose;
    }

    @Override public CompletableFuture<Result> put(DocumentId documentId, String json, OperationParameters params) {
        return send(OperationType.PUT, documentId, json.getBytes(StandardCharsets.UTF_8), params);
    }

    @Override public CompletableFuture<Result> update(DocumentId documentId, String json, OperationParameters params) {
        return send(OperationType.UPDATE, documentId, json.getBytes(StandardCharsets.UTF_8), params);
    }

    @Override public CompletableFuture<Result> remove(DocumentId documentId, OperationParameters params) {
        return send(OperationType.REMOVE, documentId, HttpRequest.NO_BODY, params);
    }

    @Override public CompletableFuture<Result> send(FeedOperation operation, OperationParameters params) {
        return send(operation.type(), operation.documentId(), operation.body(), operation.parameters(params));
    }

    private CompletableFuture<Result> send(OperationType type, DocumentId id, byte[] body, OperationParameters params) {
        boolean gzip = body.length > 0 && (compression == Compression.GZIP || compression == Compression.AUTO && body.length > 512);
        byte[] wire = gzip ? Gzip.compress(body) : body;
        long timeout = params.timeout().map(Duration::toNanos).orElse(defaultTimeoutNanos);
        HttpRequest request = new HttpRequest(type.method(), pathAndQuery(id, params), wire, gzip, body.length,
                                              strategy.nanoTime() + timeout);
        CompletableFuture<Result> result = new CompletableFuture<>();
        strategy.enqueue(id, type, request).whenComplete((response, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
                result.completeExceptionally(cause instanceof FeedException ? cause : new FeedException(id, cause));
                return;
            }
            try {
                result.complete(toResult(id, request, response));
            }
            catch (FeedException e) {
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    String pathAndQuery(DocumentId id, OperationParameters params) {
        StringBuilder path = new StringBuilder(64).append("/document/v1/");
        UrlEncoding.append(path, id.namespace()).append('/');
        UrlEncoding.append(path, id.documentType());
        if (id.number().isPresent()) path.append("/number/").append(Long.toUnsignedString(id.number().getAsLong())).append('/');
        else if (id.group().isPresent()) UrlEncoding.append(path.append("/group/"), id.group().get()).append('/');
        else path.append("/docid/");
        UrlEncoding.append(path, id.userSpecific());
        char separator = '?';
        if (params.createIfNonExistent()) {
            path.append(separator).append("create=true");
            separator = '&';
        }
        if (params.testAndSetCondition().isPresent()) {
            UrlEncoding.append(path.append(separator).append("condition="), params.testAndSetCondition().get());
            separator = '&';
        }
        if (params.route().isPresent()) {
            UrlEncoding.append(path.append(separator).append("route="), params.route().get());
            separator = '&';
        }
        if (params.tracelevel().isPresent()) {
            path.append(separator).append("tracelevel=").append(params.tracelevel().getAsInt());
            separator = '&';
        }
        if (speedTest) path.append(separator).append("dryRun=true");
        return path.toString();
    }

    static Result toResult(DocumentId id, HttpRequest request, HttpResponse response) {
        String message = null;
        String trace = null;
        try (JsonParser parser = json.createParser(response.body())) {
            if (parser.nextToken() != JsonToken.START_OBJECT)
                throw new ResultParseException(id, "Expected a JSON object in the response, but got: " + preview(response));
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("message".equals(name) && value == JsonToken.VALUE_STRING) message = parser.getText();
                else if ("trace".equals(name) && value != JsonToken.VALUE_NULL) trace = copy(parser);
                else parser.skipChildren();
            }
        }
        catch (IOException e) {
            throw new ResultParseException(id, "Failed parsing the response as JSON: " + e.getMessage() + ": " + preview(response));
        }
        switch (response.code()) {
            case 200: return new Result(Result.Type.SUCCESS, id, Optional.ofNullable(message), Optional.ofNullable(trace));
            case 412: return new Result(Result.Type.CONDITION_NOT_MET, id, Optional.ofNullable(message), Optional.ofNullable(trace));
            case 502: case 504: case 507: throw new ResultException(id, response.code(), message, trace);
            default:
                String path = request.pathAndQuery();
                int query = path.indexOf('?');
                throw new FeedException(id, response.code(), "Status " + response.code() + " executing '" + request.method() + " " +
                                                              (query < 0 ? path : path.substring(0, query)) + "': " + message);
        }
    }

    private static String copy(JsonParser parser) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = json.createGenerator(out)) {
            generator.copyCurrentStructure(parser);
        }
        return out.toString();
    }

    private static String preview(HttpResponse response) {
        String body = new String(response.body(), 0, Math.min(200, response.body().length), StandardCharsets.UTF_8);
        return "status " + response.code() + ", body '" + body + (response.body().length > 200 ? "…'" : "'");
    }

    @Override public OperationStats stats() { return stats.snapshot(strategy::inflight); }

    @Override public void resetStats() { stats.reset(); }

    @Override public CircuitBreaker.State circuitBreakerState() { return breaker.state(); }

    @Override public void close(boolean graceful) {
        try {
            if (graceful) strategy.awaitIdle();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        finally {
            strategy.close();
            onClose.run();
        }
    }

}
