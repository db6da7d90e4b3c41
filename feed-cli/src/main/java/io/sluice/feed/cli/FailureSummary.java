package io.sluice.feed.cli;

import io.sluice.feed.DocumentId;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * What finally failed, for the end of a feed: how many operations, by status, and the first few, so a feed whose errors
 * scrolled by (or were never shown) still says what went wrong.
 */
final class FailureSummary {

    static final int SHOWN = 10;

    private record Failure(DocumentId id, OptionalInt status, String message) { }

    private final Map<String, Long> byStatus = new TreeMap<>();
    private final List<Failure> first = new ArrayList<>(SHOWN);
    private long count = 0;

    synchronized void add(DocumentId id, OptionalInt status, String message) {
        count++;
        byStatus.merge(status(status), 1L, Long::sum);
        if (first.size() < SHOWN) first.add(new Failure(id, status, message));
    }

    synchronized long count() { return count; }

    /** Prints nothing when nothing failed. */
    synchronized void print(PrintStream err, String deadLetters) {
        if (count == 0) return;
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT, "%,d operation%s failed (", count, count == 1 ? "" : "s"));
        String separator = "";
        for (Map.Entry<String, Long> entry : byStatus.entrySet()) {
            text.append(separator).append(entry.getKey()).append(": ").append(String.format(Locale.ROOT, "%,d", entry.getValue()));
            separator = ", ";
        }
        text.append(")").append(deadLetters.isEmpty() ? "" : "; written to '" + deadLetters + "'")
            .append(count > first.size() ? "; the first " + first.size() + ":" : ":").append('\n');
        for (Failure failure : first)
            text.append("  ").append(failure.id()).append("  ").append(status(failure.status())).append("  ").append(failure.message()).append('\n');
        synchronized (err) {
            err.print(text);
            err.flush();
        }
    }

    private static String status(OptionalInt status) {
        return status.isPresent() ? "status " + status.getAsInt() : "no response";
    }

}
