package io.sluice.feed;

import java.nio.charset.StandardCharsets;

/** No network: every request gets an immediate 200 with an empty JSON object. */
final class DryrunCluster implements Cluster {

    private static final byte[] OK = "{}".getBytes(StandardCharsets.UTF_8);

    @Override public void dispatch(HttpRequest request, Callback callback) {
        callback.completed(new HttpResponse(200, OK));
    }

    @Override public void reconnect() { } // nothing to reconnect

    @Override public void close() { }

}
