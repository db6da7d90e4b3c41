package io.sluice.feed.cli;

import io.sluice.feed.FeedClient;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * Feed progress on stderr: on a terminal a line rewritten every second (ops/s, errors, in flight, percent and ETA
 * when the input size is known, and the responses per status); otherwise the stats JSON every 10 seconds, as the official client prints it.
 */
final class Progress implements AutoCloseable {

    private final PrintStream err;
    private final boolean terminal;
    private final long start;
    private final FeedClient client;
    private final LongAdder ok;
    private final LongAdder errors;
    private final LongSupplier bytesRead;
    private final OptionalLong inputSize;
    private final ScheduledExecutorService timer;
    private long lastOk = 0;
    private long lastNanos;

    Progress(PrintStream err, boolean terminal, boolean silent, long start, FeedClient client, LongAdder ok,
             LongAdder errors, LongSupplier bytesRead, OptionalLong inputSize) {
        this.err = err;
        this.terminal = terminal;
        this.start = start;
        this.lastNanos = start;
        this.client = client;
        this.ok = ok;
        this.errors = errors;
        this.bytesRead = bytesRead;
        this.inputSize = inputSize;
        if (silent) {
            this.timer = null;
            return;
        }
        this.timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "sluice-feed-progress");
            thread.setDaemon(true);
            return thread;
        });
        long period = terminal ? 1 : 10;
        timer.scheduleAtFixedRate(this::report, period, period, TimeUnit.SECONDS);
    }

    private void report() {
        long now = System.nanoTime();
        if ( ! terminal) {
            synchronized (err) {
                err.println(StatsJson.format(client.stats(), (now - start) / 1e9, ok.sum(), errors.sum()));
            }
            return;
        }
        long done = ok.sum();
        double rate = (done - lastOk) / Math.max(1e-9, (now - lastNanos) / 1e9);
        lastOk = done;
        lastNanos = now;
        io.sluice.feed.OperationStats stats = client.stats();
        String line = "\r" + line(done, errors.sum(), rate, stats.inflight(), bytesRead.getAsLong(), inputSize,
                                   (now - start) / 1e9) + statuses(stats.responsesByCode(), stats.exceptions()) + "   ";
        synchronized (err) {
            err.print(line);
            err.flush();
        }
    }

    /** The terminal line: counts, rate, in flight, and percent and ETA when the input size is known. */
    static String line(long ok, long errors, double rate, long inflight, long bytesRead, OptionalLong inputSize, double seconds) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%,d ok  %,d errors  %,.0f ops/s  %,d in flight",
                                                             ok, errors, rate, inflight));
        if (inputSize.isPresent() && inputSize.getAsLong() > 0 && bytesRead >= 0) {
            double fraction = Math.min(1, bytesRead / (double) inputSize.getAsLong());
            line.append(String.format(Locale.ROOT, "  %.1f%%", 100 * fraction));
            if (fraction > 0.001) {
                long eta = (long) (seconds / fraction - seconds);
                line.append(String.format(Locale.ROOT, "  ETA %d:%02d:%02d", eta / 3600, eta / 60 % 60, eta % 60));
            }
        }
        return line.toString();
    }

    /** The responses per status, retried ones included, and the attempts without a response, e.g. "  (200: 9,000  429: 12)". */
    static String statuses(Map<Integer, Long> responsesByCode, long exceptions) {
        if (responsesByCode.isEmpty() && exceptions == 0) return "";
        StringBuilder text = new StringBuilder("  (");
        String separator = "";
        for (Map.Entry<Integer, Long> entry : new TreeMap<>(responsesByCode).entrySet()) {
            text.append(separator).append(entry.getKey()).append(": ").append(String.format(Locale.ROOT, "%,d", entry.getValue()));
            separator = "  ";
        }
        if (exceptions > 0) text.append(separator).append("no response: ").append(String.format(Locale.ROOT, "%,d", exceptions));
        return text.append(')').toString();
    }

    @Override public void close() {
        if (timer == null) return;
        timer.shutdownNow();
        if (terminal) {
            synchronized (err) { err.println(); }
        }
    }

}
