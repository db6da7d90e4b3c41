package io.sluice.feed;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Holds every dispatched request with its callback until the test answers it. */
final class RecordingCluster implements Cluster {

    record Exchange(HttpRequest request, Callback callback) {
        void respond(int code) { callback.completed(new HttpResponse(code, "{}".getBytes(StandardCharsets.UTF_8))); }
        void respond(int code, String body) { callback.completed(new HttpResponse(code, body.getBytes(StandardCharsets.UTF_8))); }
        void fail(Throwable cause) { callback.failed(cause); }
        String path() { return request.pathAndQuery(); }
    }

    final List<Exchange> exchanges = new ArrayList<>();
    boolean closed = false;
    int reconnects = 0;

    @Override public synchronized void dispatch(HttpRequest request, Callback callback) {
        exchanges.add(new Exchange(request, callback));
    }

    synchronized Exchange get(int i) { return exchanges.get(i); }

    synchronized int count() { return exchanges.size(); }

    synchronized List<String> paths() {
        List<String> paths = new ArrayList<>();
        for (Exchange exchange : exchanges) paths.add(exchange.path());
        return paths;
    }

    @Override public synchronized void reconnect() { reconnects++; }

    @Override public void close() { closed = true; }

}
