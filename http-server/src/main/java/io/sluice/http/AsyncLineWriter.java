package io.sluice.http;

import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.util.component.AbstractLifeCycle;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes lines to a stream from one background thread. The queue is bounded: when it is full, lines are dropped and
 * counted rather than blocking the caller. Jetty's {@code AsyncRequestLogWriter} does this for files; this is the same
 * for standard output.
 */
final class AsyncLineWriter extends AbstractLifeCycle implements RequestLog.Writer {

    private static final String STOP = new String("stop");

    private final PrintStream out;
    private final BlockingQueue<String> queue;
    private final AtomicLong dropped = new AtomicLong();
    private Thread thread;

    AsyncLineWriter(OutputStream out, int capacity) {
        this.out = new PrintStream(out, false, StandardCharsets.UTF_8);
        this.queue = new ArrayBlockingQueue<>(capacity);
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

    @Override
    protected void doStart() {
        thread = new Thread(this::drain, "access-log-writer");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    protected void doStop() throws InterruptedException {
        queue.put(STOP);
        thread.join();
    }

    private void drain() {
        try {
            while (true) {
                String line = queue.take();
                if (line == STOP) break;
                out.println(line);
                if (queue.isEmpty())
                    out.flush();
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        out.flush();
    }

}
