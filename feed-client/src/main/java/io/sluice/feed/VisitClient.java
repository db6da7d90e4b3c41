package io.sluice.feed;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.util.thread.Invocable;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Visits (streamed, JSONL preferred, JSON understood), and drives update-where and delete-where, one slice per call,
 * blocking the calling thread; call it from one thread per slice to run slices in parallel over multiplexed HTTP/2,
 * spread over the builder's connections (slice i on connection i mod connections).
 * 429, 503, transport failures and truncated streams are retried from the last continuation token with jittered
 * exponential backoff (at most 10 failures in a row, except 429).
 */
public final class VisitClient implements AutoCloseable {

    private static final JsonFactory json = new JsonFactory();
    private static final int MAX_FAILURES = 10;
    // How far the server may stream ahead of a slice's reader: enough for 80 MB/s per slice at 50 ms round trip.
    private static final int STREAM_WINDOW = 4 << 20;
    // How far the server may stream ahead of all the client's readers: what its connections' windows share.
    static final int WINDOWS_BYTES = 64 << 20;

    private final HttpClients clients;
    private final List<URI> endpoints;
    private final HttpClient[] httpClients; // made on first use
    private final String[] bases;
    private final Map<String, Supplier<String>> headers;
    private volatile boolean answered = false; // whether any request got an HTTP response

    VisitClient(FeedClientBuilder settings) {
        this.endpoints = List.copyOf(settings.endpoints);
        int count = endpoints.size() * settings.connectionsPerEndpoint;
        this.clients = new HttpClients(settings, count);
        this.httpClients = new HttpClient[count];
        this.bases = new String[count];
        for (int i = 0; i < count; i++) bases[i] = HttpClients.base(endpoints.get(i % endpoints.size()));
        this.headers = Map.copyOf(settings.headers);
    }

    /** The client of connection {@code i}; slice s uses connection s mod count, so fewer slices start fewer clients. */
    private synchronized HttpClient httpClient(int i) {
        if (httpClients[i] == null) {
            boolean tls = "https".equals(endpoints.get(i % endpoints.size()).getScheme());
            int session = sessionWindow(httpClients.length);
            HttpClient client = clients.newClient(tls, 1024, Math.min(STREAM_WINDOW, session), session);
            // Jetty asks for gzip by default: the server would then deflate every visited byte (4-8 times the CPU of
            // the visit itself) and this client inflate it again, for a dump that goes to disk anyway.
            client.getContentDecoderFactories().clear();
            httpClients[i] = client;
        }
        return httpClients[i];
    }

    /**
     * The receive window of each of {@code connections} sessions: a share of {@link #WINDOWS_BYTES}, between 1 and
     * 16 MiB, so what the server may send ahead of slow readers is bounded however many connections there are
     * (the buffers it arrives in are pooled by {@link HttpClients#streamBuffers}).
     */
    static int sessionWindow(int connections) {
        return Math.max(1 << 20, Math.min(16 << 20, WINDOWS_BYTES / Math.max(1, connections)));
    }

    /**
     * Visits slice {@code sliceId} of {@code params.slices()}, from {@code continuation} or the start, until the slice is
     * done, delivering documents and continuation tokens to {@code sink}.
     *
     * @throws FeedException when the server rejects the visit, or keeps failing
     * @throws IOException when the sink fails
     */
    public void visit(VisitParameters params, int sliceId, Optional<String> continuation, VisitSink sink) throws IOException {
        checkSlice(params, sliceId);
        Optional<String> token = continuation;
        int failures = 0;
        for (boolean first = true; ; first = false) {
            if ( ! first) sink.rewind();
            VisitResponse exchange = new VisitResponse(sink);
            Request request = newRequest(sliceId, "GET", params.pathAndQuery(sliceId, token, true), params);
            request.headers(fields -> fields.put(HttpHeader.ACCEPT, "application/jsonl, application/json;q=0.9"));
            Outcome outcome = exchange(request, exchange);
            if (exchange.finished) return;
            if (exchange.token.isPresent() && ! exchange.token.equals(token)) failures = 0; // progress was made
            token = exchange.token.isPresent() ? exchange.token : token;
            if (outcome == Outcome.DONE) continue; // budget spent: go on from the last token
            failures = backoff(outcome, failures, sliceId, exchange.error);
        }
    }

    /**
     * Drives update-where ({@code PUT} with {@code updateBody}) or delete-where ({@code DELETE}, empty body) for one
     * slice to completion, reporting processed document counts and tokens to {@code sink}.
     */
    public void processWhere(String method, VisitParameters params, int sliceId, Optional<String> continuation,
                             byte[] updateBody, VisitSink sink) throws IOException {
        if ( ! method.equals("PUT") && ! method.equals("DELETE")) throw new IllegalArgumentException("Method must be PUT or DELETE, but was " + method);
        checkSlice(params, sliceId);
        Optional<String> token = continuation;
        int failures = 0;
        while (true) {
            Request request = newRequest(sliceId, method, params.pathAndQuery(sliceId, token, false), params);
            if (updateBody.length > 0) request.body(new BytesRequestContent("application/json", updateBody));
            Page page = page(request);
            if (page.status == 200) {
                failures = 0;
                sink.processed(page.documentCount);
                sink.continuation(page.continuation, Double.NaN);
                if (page.continuation.isEmpty()) return;
                token = page.continuation;
                continue;
            }
            Outcome outcome = page.status == 429 ? Outcome.THROTTLED
                              : page.status == 503 || page.status < 0 ? Outcome.RETRY : Outcome.FAILED;
            failures = backoff(outcome, failures, sliceId, page.message);
        }
    }

    /**
     * The server's content clusters, found as the Vespa CLI finds them: by visiting cluster {@code *}, which the server
     * refuses with the message {@code Your Vespa deployment has no content cluster '*', only 'a', 'b'}.
     *
     * @throws FeedException when the server does not answer so, or cannot be reached
     */
    public List<String> contentClusters() {
        Page page = page(newRequest(0, "GET", "/document/v1/?cluster=%2A&wantedDocumentCount=1&timeout=10000ms", 10_000));
        String marker = "no content cluster '*', only ";
        int at = page.message == null ? -1 : page.message.indexOf(marker);
        if (at < 0)
            throw new FeedException("Failed finding the content clusters: visiting cluster '*' got status " + page.status +
                                    (page.message == null ? "" : ": " + page.message) + "; name one with --content-cluster");
        List<String> clusters = new java.util.ArrayList<>();
        String rest = page.message.substring(at + marker.length());
        for (int open = rest.indexOf('\''); open >= 0; ) {
            int close = rest.indexOf('\'', open + 1);
            if (close < 0) break;
            clusters.add(rest.substring(open + 1, close));
            open = rest.indexOf('\'', close + 1);
        }
        if (clusters.isEmpty()) throw new FeedException("Failed finding the content clusters in: " + page.message);
        return List.copyOf(clusters);
    }

    private static void checkSlice(VisitParameters params, int sliceId) {
        if (sliceId < 0 || sliceId >= params.slices())
            throw new IllegalArgumentException("Slice id must be in [0, " + params.slices() + "), but was " + sliceId);
    }

    private Request newRequest(int sliceId, String method, String pathAndQuery, VisitParameters params) {
        return newRequest(sliceId, method, pathAndQuery, params.timeout().toMillis());
    }

    private Request newRequest(int sliceId, String method, String pathAndQuery, long timeoutMillis) {
        int i = sliceId % httpClients.length;
        Request request = httpClient(i).newRequest(bases[i] + pathAndQuery)
                                        .method(method)
                                        .version(HttpVersion.HTTP_2)
                                        .idleTimeout(timeoutMillis + 30_000, TimeUnit.MILLISECONDS);
        if ( ! headers.isEmpty()) request.headers(fields -> headers.forEach((name, value) -> fields.put(name, value.get())));
        return request;
    }

    private int backoff(Outcome outcome, int failures, int sliceId, String error) {
        if (outcome == Outcome.FAILED) throw new FeedException("Visiting slice " + sliceId + " failed: " + error);
        if ( ! answered) { // a server refusing the client's certificate (or its absence) does not change its mind
            Optional<String> problem = clients.clientCertificateProblem();
            if (problem.isPresent()) throw new FeedException("Visiting slice " + sliceId + " failed: " + error + "; " + problem.get());
        }
        if (outcome != Outcome.THROTTLED && ++failures > MAX_FAILURES)
            throw new FeedException("Visiting slice " + sliceId + " failed " + MAX_FAILURES + " times in a row; last: " + error);
        long delay = (long) (Math.min(10_000, 100 * Math.pow(1.5, Math.min(failures, 20))) * (0.5 + 0.5 * ThreadLocalRandom.current().nextDouble()));
        try {
            Thread.sleep(delay);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FeedException("Interrupted while visiting slice " + sliceId);
        }
        return failures;
    }

    enum Outcome { DONE, THROTTLED, RETRY, FAILED }

    private Outcome exchange(Request request, VisitResponse exchange) throws IOException {
        VisitListener listener = new VisitListener(exchange);
        request.send(listener);
        Response response;
        try {
            response = listener.stream.get(request.getIdleTimeout() + 10_000, TimeUnit.MILLISECONDS);
        }
        catch (ExecutionException | TimeoutException e) {
            exchange.error = String.valueOf(e.getCause() != null ? e.getCause() : e);
            request.abort(e);
            return Outcome.RETRY;
        }
        catch (InterruptedException e) {
            request.abort(e);
            Thread.currentThread().interrupt();
            throw new FeedException("Interrupted while visiting");
        }
        answered = true;
        if (listener.lines) return linesOutcome(request, listener, exchange);
        try (InputStream in = listener.stream.getInputStream()) {
            if (response.getStatus() != 200) {
                Page page = parsePage(response.getStatus(), in.readAllBytes());
                exchange.error = "status " + response.getStatus() + ": " + page.message;
                return response.getStatus() == 429 ? Outcome.THROTTLED : response.getStatus() == 503 ? Outcome.RETRY : Outcome.FAILED;
            }
            try {
                exchange.readJson(in);
            }
            catch (IOException e) {
                if (exchange.sinkFailure != null) throw exchange.sinkFailure;
                exchange.error = "truncated response: " + e;
                return Outcome.RETRY;
            }
            if (exchange.sinkFailure != null) throw exchange.sinkFailure;
            if (exchange.error != null) return Outcome.FAILED;
            return exchange.finished || exchange.sawContinuation ? Outcome.DONE : Outcome.RETRY;
        }
    }

    /** How a JSON-lines response, read by its listener as it arrived, ended. */
    private static Outcome linesOutcome(Request request, VisitListener listener, VisitResponse exchange) throws IOException {
        Result result;
        try {
            result = listener.done.get();
        }
        catch (InterruptedException e) {
            request.abort(e);
            listener.quiesce(); // the sink is the caller's again once this returns, whatever the outcome
            Thread.currentThread().interrupt();
            throw new FeedException("Interrupted while visiting");
        }
        catch (ExecutionException e) {
            throw new IllegalStateException("The listener's future is only ever completed normally", e);
        }
        listener.quiesce();
        if (exchange.sinkFailure != null) throw exchange.sinkFailure;
        Throwable failure = listener.failure != null ? listener.failure : result.getFailure();
        if (failure != null) {
            exchange.error = "truncated response: " + failure;
            return Outcome.RETRY;
        }
        if (exchange.error != null) return Outcome.FAILED;
        return exchange.finished || exchange.sawContinuation ? Outcome.DONE : Outcome.RETRY;
    }

    /**
     * The listener of one visit request. A 200 response of JSON lines, all but the errors of a visit, is read as it
     * arrives on the thread that delivers its content, which hands each chunk to the {@link VisitResponse} and asks for
     * the next only then: no hand-off to the visiting thread at each chunk (a 1 GB dump parked threads 19,558 times
     * with them, 9,097 without, and took 6% less CPU). That thread may block on the sink's output; the visit's
     * clients have a connection and a selector each, so a slow output holds back its own connection, as
     * backpressure should. Any other response is read through {@link #stream} by the visiting thread.
     */
    private static final class VisitListener implements Response.Listener, Invocable {

        private final VisitResponse exchange;
        final InputStreamResponseListener stream = new InputStreamResponseListener();
        final CompletableFuture<Result> done = new CompletableFuture<>();
        volatile boolean lines = false; // decided by the response's status and type, before its content
        volatile Throwable failure; // reading the content failed, here
        // Held while content goes to the sink. A response can fail (an idle timeout, an abort) while a chunk is still
        // being written out; the visiting thread then waits for that, and no later chunk reaches the sink, before it
        // rewinds the sink and retries.
        private final Object sinkLock = new Object();
        private boolean quiesced = false; // guarded by sinkLock

        VisitListener(VisitResponse exchange) { this.exchange = exchange; }

        @Override public void onHeaders(Response response) {
            String type = response.getHeaders().get(HttpHeader.CONTENT_TYPE);
            lines = response.getStatus() == 200 && type != null && type.startsWith("application/jsonl");
            stream.onHeaders(response);
        }

        @Override public void onContent(Response response, Content.Chunk chunk, Runnable demander) {
            if ( ! lines) {
                stream.onContent(response, chunk, demander);
                return;
            }
            synchronized (sinkLock) {
                if (quiesced) return;
                try {
                    exchange.accept(chunk.getByteBuffer());
                }
                catch (IOException | RuntimeException e) {
                    failure = e;
                    response.abort(e);
                    return;
                }
            }
            demander.run();
        }

        @Override public void onSuccess(Response response) {
            synchronized (sinkLock) {
                if (lines && failure == null && ! quiesced) {
                    try {
                        exchange.end();
                    }
                    catch (IOException | RuntimeException e) {
                        failure = e;
                    }
                }
            }
            stream.onSuccess(response);
        }

        /** Waits for content being written out to the sink, and lets no more through: the sink is the caller's again. */
        void quiesce() {
            synchronized (sinkLock) {
                quiesced = true;
            }
        }

        @Override public void onFailure(Response response, Throwable cause) { stream.onFailure(response, cause); }

        @Override public void onComplete(Result result) {
            stream.onComplete(result);
            done.complete(result);
        }

        /** Content is taken without waiting for anything but the sink's output: see the class comment. */
        @Override public InvocationType getInvocationType() { return InvocationType.NON_BLOCKING; }

    }

    private record Page(int status, long documentCount, Optional<String> continuation, String message) { }

    private Page page(Request request) {
        try {
            var response = request.timeout(request.getIdleTimeout(), TimeUnit.MILLISECONDS).send();
            answered = true;
            return parsePage(response.getStatus(), response.getContent());
        }
        catch (ExecutionException | TimeoutException e) {
            return new Page(-1, 0, Optional.empty(), String.valueOf(e.getCause() != null ? e.getCause() : e));
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FeedException("Interrupted");
        }
    }

    private static Page parsePage(int status, byte[] body) {
        long count = 0;
        String continuation = null, message = null;
        try (JsonParser parser = json.createParser(body)) {
            if (parser.nextToken() == JsonToken.START_OBJECT) {
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    parser.nextToken();
                    if ("documentCount".equals(field)) count = parser.getValueAsLong();
                    else if ("continuation".equals(field)) continuation = parser.getValueAsString();
                    else if ("message".equals(field)) message = parser.getValueAsString();
                    else parser.skipChildren();
                }
            }
        }
        catch (IOException e) {
            message = "unparseable response: " + new String(body, 0, Math.min(200, body.length), java.nio.charset.StandardCharsets.UTF_8);
        }
        return new Page(status, count, Optional.ofNullable(continuation).filter(t -> ! t.isEmpty()), message);
    }

    @Override public void close() { clients.close(); }

}
