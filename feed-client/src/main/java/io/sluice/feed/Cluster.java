package io.sluice.feed;

/** Sends requests somewhere. The seam between the request strategy and the network. */
interface Cluster extends AutoCloseable {

    /**
     * Sends the request, and later calls exactly one of {@code callback}'s methods, on any thread, possibly this one.
     * Must not block.
     */
    void dispatch(HttpRequest request, Callback callback);

    /**
     * Opens new connections for the requests that follow, and closes the current ones once their requests completed;
     * called when the circuit breaker goes half-open. Must not block.
     */
    void reconnect();

    @Override void close();

    interface Callback {
        void completed(HttpResponse response);
        void failed(Throwable cause);
    }

}
