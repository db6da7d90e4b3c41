package io.sluice.feed;

import java.util.ArrayList;
import java.util.List;

/** A fixed target that remembers what it was told. */
final class FixedThrottler implements Throttler {

    final long target;
    final List<Long> throttled = new ArrayList<>();
    int successes = 0;

    FixedThrottler(long target) { this.target = target; }

    @Override public void sent(long inflight) { }
    @Override public synchronized void success() { successes++; }
    @Override public synchronized void throttled(long inflight) { throttled.add(inflight); }
    @Override public long targetInflight() { return target; }

}
