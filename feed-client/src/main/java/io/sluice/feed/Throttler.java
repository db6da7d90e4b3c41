package io.sluice.feed;

/**
 * Decides how many operations (distinct document ids) may be in flight. Implementations must be thread-safe and cheap:
 * they are called once per attempt.
 */
public interface Throttler {

    /** An attempt was sent while {@code inflight} operations were in flight. */
    void sent(long inflight);

    /** An operation got a final, non-throttled response. */
    void success();

    /** The server answered 429 while {@code inflight} operations were in flight. */
    void throttled(long inflight);

    /** How many operations may be in flight now. */
    long targetInflight();

}
