package io.sluice.feed;

/**
 * Watches outcomes and decides whether the client keeps sending. Implementations must be thread-safe.
 */
public interface CircuitBreaker {

    /** A breaker that never opens. */
    CircuitBreaker FUSED = new CircuitBreaker() {
        @Override public void success() { }
        @Override public void failure(int status) { }
        @Override public void failure(Throwable cause) { }
        @Override public State state() { return State.CLOSED; }
    };

    /** A response that shows the server is healthy: 2xx, 404, 412. */
    void success();

    /** A response that shows the server is failing: 503 and other 5xx. */
    void failure(int status);

    /** A transport failure. */
    void failure(Throwable cause);

    State state();

    enum State {
        /** Sending normally. */
        CLOSED,
        /** Failing for a while: send one probe at a time. */
        HALF_OPEN,
        /** Failing for too long: abort everything. */
        OPEN
    }

}
