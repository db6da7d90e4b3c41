package io.sluice.feed;

import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.BytesRequestContent;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;

import java.net.URI;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * Sends requests over several HTTP/2 connections, each its own Jetty client with one connection, and each request to
 * the connection with the fewest requests in flight (ties broken round-robin).
 */
final class JettyCluster implements Cluster {

    private static final int MAX_RESPONSE_BYTES = 64 << 20;

    private final HttpClients clients;
    private final Connection[] connections;
    private final Map<String, Supplier<String>> headers;
    private final AtomicInteger next = new AtomicInteger();

    JettyCluster(FeedClientBuilder settings) {
        int count = settings.endpoints.size() * settings.connectionsPerEndpoint;
        this.clients = new HttpClients(settings, count);
        this.headers = Map.copyOf(settings.headers);
        this.connections = new Connection[count];
        int i = 0;
        for (URI endpoint : settings.endpoints)
            for (int j = 0; j < settings.connectionsPerEndpoint; j++)
                connections[i++] = new Connection(clients.newClient("https".equals(endpoint.getScheme()), settings.maxStreamsPerConnection),
                                                  base(endpoint));
    }

    static String base(URI endpoint) {
        int port = endpoint.getPort() != -1 ? endpoint.getPort() : "https".equals(endpoint.getScheme()) ? 443 : 80;
        String host = endpoint.getHost().contains(":") && ! endpoint.getHost().startsWith("[") ? "[" + endpoint.getHost() + "]" : endpoint.getHost();
        return endpoint.getScheme() + "://" + host + ":" + port;
    }

    @Override public void dispatch(HttpRequest request, Callback callback) {
        Connection connection = leastBusy();
        connection.inflight.incrementAndGet();
        long millisLeft = Math.max(1, TimeUnit.NANOSECONDS.toMillis(request.deadlineNanos() - System.nanoTime()));
        String path = request.pathAndQuery();
        String uri = connection.base + path + (path.indexOf('?') < 0 ? "?" : "&") + "timeout=" + millisLeft + "ms";
        try {
            Request jettyRequest = connection.client.newRequest(uri)
                                                    .method(request.method())
                                                    .version(HttpVersion.HTTP_2)
                                                    .timeout(millisLeft + 1000, TimeUnit.MILLISECONDS);
            if ( ! headers.isEmpty())
                jettyRequest.headers(fields -> headers.forEach((name, value) -> fields.put(name, value.get())));
            if (request.body().length > 0) {
                jettyRequest.body(new BytesRequestContent("application/json", request.body()));
                if (request.gzipped()) jettyRequest.headers(fields -> fields.put(HttpHeader.CONTENT_ENCODING, "gzip"));
            }
            jettyRequest.send(new ResponseListener(connection, callback));
        }
        catch (RuntimeException e) {
            connection.inflight.decrementAndGet();
            callback.failed(e);
        }
    }

    private Connection leastBusy() {
        int start = Math.floorMod(next.getAndIncrement(), connections.length);
        Connection best = connections[start];
        int bestInflight = best.inflight.get();
        for (int i = 1; i < connections.length && bestInflight > 0; i++) {
            Connection candidate = connections[(start + i) % connections.length];
            int inflight = candidate.inflight.get();
            if (inflight < bestInflight) {
                best = candidate;
                bestInflight = inflight;
            }
        }
        return best;
    }

    @Override public void close() { clients.close(); }

    private static final class Connection {
        final HttpClient client;
        final String base;
        final AtomicInteger inflight = new AtomicInteger();

        Connection(HttpClient client, String base) {
            this.client = client;
            this.base = base;
        }
    }

    private static final class ResponseListener extends BufferingResponseListener {

        private final Connection connection;
        private final Callback callback;

        ResponseListener(Connection connection, Callback callback) {
            super(MAX_RESPONSE_BYTES);
            this.connection = connection;
            this.callback = callback;
        }

        @Override public void onComplete(org.eclipse.jetty.client.Result result) {
            connection.inflight.decrementAndGet();
            if (result.isFailed()) callback.failed(result.getFailure());
            else callback.completed(new HttpResponse(result.getResponse().getStatus(), getContent()));
        }

    }

}
