package io.sluice.http;

import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes lines to a stream or file from one background thread. The queue is bounded: when it is full, lines are dropped
 * and counted rather than blocking the caller, and the drops are reported in one log line a second at most (Jetty's
 * {@code AsyncRequestLogWriter} warns once per dropped line, which under overload floods the log it should relieve).
 */
final class AsyncLineWriter extends AbstractLifeCycle implements RequestLog.Writer {

    private static final Logger log = LoggerFactory.getLogger(AsyncLineWriter.class);
    private static final String STOP = new String("stop");
    private static final long REPORT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Path file;
    private final BlockingQueue<String> queue;
    private final int capacity;
    private final AtomicLong dropped = new AtomicLong();
    private long reported = 0; // drops reported so far; touched by the writer thread (or a test) only
    private PrintStream out;
    private Thread thread;

    AsyncLineWriter(OutputStream out, int capacity) {
        this(null, new PrintStream(out, false, StandardCharsets.UTF_8), capacity);
    }

    private AsyncLineWriter(Path file, PrintStream out, int capacity) {
        this.file = file;
        this.out = out;
        this.capacity = capacity;
        this.queue = new ArrayBlockingQueue<>(capacity);
    }

    /** A writer appending to {@code file}, which is opened (and must be openable) when the writer starts. */
    static AsyncLineWriter toFile(Path file, int capacity) {
        return new AsyncLineWriter(file, null, capacity);
    }

    @Override
    public void write(String line) {
        if ( ! queue.offer(line))
            dropped.incrementAndGet();
    }

    /** Lines not written because the queue was full. */
    long dropped() {
        return dropped.get();
    }

    /** Logs the drops since the last report, if any, and returns their number. */
    long reportDrops() {
        long total = dropped.get();
        long fresh = total - reported;
        reported = total;
        if (fresh > 0)
            log.warn("Access log overloaded: dropped {} entries since the last report ({} in all; the queue holds {})",
                     fresh, total, capacity);
        return fresh;
    }

    /**
     * @throws UncheckedIOException naming the file if it cannot be opened for appending
     */
    @Override
    protected void doStart() {
        if (file != null) {
            try {
                out = new PrintStream(new FileOutputStream(file.toFile(), true), false, StandardCharsets.UTF_8);
            }
            catch (IOException e) {
                throw new UncheckedIOException("Cannot open the access log " + file + ": " + e.getMessage(), e);
            }
        }
        thread = new Thread(this::drain, "access-log-writer");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    protected void doStop() throws InterruptedException {
        queue.put(STOP);
        thread.join();
        reportDrops();
        if (file != null)
            out.close();
    }

    private void drain() {
        long lastReport = System.nanoTime();
        try {
            while (true) {
                String line = queue.poll(1, TimeUnit.SECONDS);
                if (line == STOP) break;
                if (line != null)
                    out.println(line);
                if (queue.isEmpty())
                    out.flush();
                long now = System.nanoTime();
                if (now - lastReport >= REPORT_INTERVAL_NANOS) {
                    reportDrops();
                    lastReport = now;
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.flush();
    }

}
