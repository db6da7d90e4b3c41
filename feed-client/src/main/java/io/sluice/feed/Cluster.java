package io.sluice.feed;

/** Sends requests somewhere. The seam between the request strategy and the network. */
interface Cluster extends AutoCloseable {

    /**
     * Sends the request, and later calls exactly one of {@code callback}'s methods, on any thread, possibly this one.
     * Must not block.
     */
    void dispatch(HttpRequest request, Callback callback);

    @Override void close();

    interface Callback {
        void completed(HttpResponse response);
        void failed(Throwable cause);
    }

}
