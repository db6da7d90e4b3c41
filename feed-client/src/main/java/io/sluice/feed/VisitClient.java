package io.sluice.feed;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.InputStreamResponseListener;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
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
    private static final byte[] PUT_PREFIX = "{\"put\":".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private static final int MAX_FAILURES = 10;
    // How far the server may stream ahead of a slice's reader: enough for 80 MB/s per slice at 50 ms round trip.
    private static final int STREAM_WINDOW = 4 << 20;
    private static final int SESSION_WINDOW = 16 << 20;

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
            HttpClient client = clients.newClient(tls, 1024, STREAM_WINDOW, SESSION_WINDOW);
            // Jetty asks for gzip by default: the server would then deflate every visited byte (4-8 times the CPU of
            // the visit itself) and this client inflate it again, for a dump that goes to disk anyway.
            client.getContentDecoderFactories().clear();
            httpClients[i] = client;
        }
        return httpClients[i];
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
            Exchange exchange = new Exchange(sink);
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

    private static void checkSlice(VisitParameters params, int sliceId) {
        if (sliceId < 0 || sliceId >= params.slices())
            throw new IllegalArgumentException("Slice id must be in [0, " + params.slices() + "), but was " + sliceId);
    }

    private Request newRequest(int sliceId, String method, String pathAndQuery, VisitParameters params) {
        int i = sliceId % httpClients.length;
        Request request = httpClient(i).newRequest(bases[i] + pathAndQuery)
                                        .method(method)
                                        .version(HttpVersion.HTTP_2)
                                        .idleTimeout(params.timeout().toMillis() + 30_000, TimeUnit.MILLISECONDS);
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

    private Outcome exchange(Request request, Exchange exchange) throws IOException {
        InputStreamResponseListener listener = new InputStreamResponseListener();
        request.send(listener);
        Response response;
        try {
            response = listener.get(request.getIdleTimeout() + 10_000, TimeUnit.MILLISECONDS);
        }
        catch (ExecutionException | TimeoutException e) {
            exchange.error = String.valueOf(e.getCause() != null ? e.getCause() : e);
            request.abort(e);
            return Outcome.RETRY;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new FeedException("Interrupted while visiting");
        }
        answered = true;
        try (InputStream in = listener.getInputStream()) {
            if (response.getStatus() != 200) {
                Page page = parsePage(response.getStatus(), in.readAllBytes());
                exchange.error = "status " + response.getStatus() + ": " + page.message;
                return response.getStatus() == 429 ? Outcome.THROTTLED : response.getStatus() == 503 ? Outcome.RETRY : Outcome.FAILED;
            }
            String type = response.getHeaders().get(HttpHeader.CONTENT_TYPE);
            try {
                if (type != null && type.startsWith("application/jsonl")) exchange.readLines(in);
                else exchange.readJson(in);
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

    /** Reads one visit response, feeding the sink. */
    private static final class Exchange {

        final VisitSink sink;
        Optional<String> token = Optional.empty();
        boolean finished = false;
        boolean sawContinuation = false;
        String error;
        IOException sinkFailure;

        Exchange(VisitSink sink) { this.sink = sink; }

        void readLines(InputStream in) throws IOException {
            byte[] buffer = new byte[1 << 16];
            int start = 0, end = 0;
            while (true) {
                int newline = -1;
                for (int i = start; i < end; i++) if (buffer[i] == '\n') { newline = i; break; }
                if (newline >= 0) {
                    line(buffer, start, newline - start);
                    start = newline + 1;
                    continue;
                }
                if (start > 0) {
                    System.arraycopy(buffer, start, buffer, 0, end - start);
                    end -= start;
                    start = 0;
                }
                if (end == buffer.length) buffer = java.util.Arrays.copyOf(buffer, buffer.length * 2);
                int read = in.read(buffer, end, buffer.length - end);
                if (read < 0) {
                    if (end > start) line(buffer, start, end - start);
                    return;
                }
                end += read;
            }
        }

        private void line(byte[] bytes, int offset, int length) throws IOException {
            while (length > 0 && (bytes[offset + length - 1] == '\r' || bytes[offset + length - 1] == ' ')) length--;
            if (length == 0) return;
            if (startsWith(bytes, offset, length, PUT_PREFIX)) { // {"put":… becomes {"id":…, in place
                bytes[offset + 1] = '{';
                bytes[offset + 2] = '"';
                bytes[offset + 3] = 'i';
                bytes[offset + 4] = 'd';
                bytes[offset + 5] = '"';
                bytes[offset + 6] = ':';
                deliver(bytes, offset + 1, length - 1);
                return;
            }
            try (JsonParser parser = json.createParser(bytes, offset, length)) {
                if (parser.nextToken() != JsonToken.START_OBJECT || parser.nextToken() != JsonToken.FIELD_NAME) return;
                String name = parser.currentName();
                parser.nextToken();
                switch (name) {
                    case "put": case "id": deliver(renamed(parser)); break;
                    case "continuation": continuation(parser); break;
                    case "message": message(parser); break;
                    default: // remove, sessionStats, sessionTrace, and anything newer: ignored
                }
            }
        }

        private byte[] renamed(JsonParser parser) throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            try (JsonGenerator generator = json.createGenerator(out)) {
                generator.writeStartObject();
                generator.writeFieldName("id");
                generator.copyCurrentStructure(parser);
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    generator.copyCurrentStructure(parser);
                }
                generator.writeEndObject();
            }
            return out.toByteArray();
        }

        private void continuation(JsonParser parser) throws IOException {
            if (parser.currentToken() != JsonToken.START_OBJECT) return;
            String newToken = null;
            double percent = Double.NaN;
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                if ("token".equals(field)) newToken = parser.getValueAsString();
                else if ("percentFinished".equals(field)) percent = parser.getValueAsDouble();
                else parser.skipChildren();
            }
            continued(Optional.ofNullable(newToken).filter(t -> ! t.isEmpty()), percent);
        }

        private void continued(Optional<String> newToken, double percent) throws IOException {
            sawContinuation = true;
            if (newToken.isEmpty()) finished = true;
            else token = newToken;
            try {
                sink.continuation(newToken, percent);
            }
            catch (IOException e) {
                sinkFailure = e;
                throw e;
            }
        }

        private void message(JsonParser parser) throws IOException {
            if (parser.currentToken() == JsonToken.VALUE_STRING) {
                error = parser.getText();
                return;
            }
            String text = null, severity = "error";
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                parser.nextToken();
                if ("text".equals(field)) text = parser.getValueAsString();
                else if ("severity".equals(field)) severity = parser.getValueAsString();
                else parser.skipChildren();
            }
            if ("error".equals(severity)) error = text;
        }

        /** A non-JSONL visit response: {@code {"documents":[…],"continuation":"…","message":"…"}}. */
        void readJson(InputStream in) throws IOException {
            String continuation = null;
            try (JsonParser parser = json.createParser(in)) {
                if (parser.nextToken() != JsonToken.START_OBJECT) throw new IOException("Expected a JSON object");
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if ("documents".equals(field) && value == JsonToken.START_ARRAY) {
                        while (parser.nextToken() == JsonToken.START_OBJECT) {
                            ByteArrayOutputStream out = new ByteArrayOutputStream();
                            try (JsonGenerator generator = json.createGenerator(out)) {
                                generator.copyCurrentStructure(parser);
                            }
                            byte[] document = out.toByteArray();
                            if ( ! startsWith(document, 0, document.length, "{\"remove\"".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
                                deliver(document);
                        }
                    }
                    else if ("continuation".equals(field)) continuation = parser.getValueAsString();
                    else if ("message".equals(field) && value == JsonToken.VALUE_STRING) error = parser.getText();
                    else parser.skipChildren();
                }
                if (parser.currentToken() != JsonToken.END_OBJECT) throw new IOException("Truncated JSON response");
            }
            if (error != null && continuation != null) error = null; // a streamed response ending with a token goes on
            if (error == null) continued(Optional.ofNullable(continuation).filter(t -> ! t.isEmpty()), Double.NaN);
        }

        private void deliver(byte[] document) throws IOException { deliver(document, 0, document.length); }

        private void deliver(byte[] bytes, int offset, int length) throws IOException {
            try {
                sink.document(bytes, offset, length);
            }
            catch (IOException e) {
                sinkFailure = e;
                throw e;
            }
        }

    }

    private static boolean startsWith(byte[] bytes, int offset, int length, byte[] prefix) {
        if (length < prefix.length) return false;
        for (int i = 0; i < prefix.length; i++) if (bytes[offset + i] != prefix[i]) return false;
        return true;
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
