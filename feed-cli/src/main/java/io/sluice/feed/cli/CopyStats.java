package io.sluice.feed.cli;

import java.util.concurrent.atomic.LongAdder;

/** Counts of a copy, for its progress line: documents visited, fed (acknowledged by the target), failed, and bytes fed. */
final class CopyStats {
    final LongAdder visited = new LongAdder();
    final LongAdder fed = new LongAdder();
    final LongAdder failed = new LongAdder();
    final LongAdder bytes = new LongAdder();
}
