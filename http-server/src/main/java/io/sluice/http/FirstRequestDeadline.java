package io.sluice.http;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.internal.HttpConnection;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Closes an HTTP/1.1 connection that has not completed the head of its first request within a deadline. The idle
 * timeout does not do it: a client trickling one header byte at a time is never idle, and enough of them (slowloris)
 * hold every file descriptor. A connection that upgraded (h2c) or carried a request is left alone. Added to a
 * connector as a bean, it listens to every connection the connector opens.
 */
final class FirstRequestDeadline implements Connection.Listener {

    /** How long a new connection may take to send its first request head. */
    static final Duration DEFAULT = Duration.ofSeconds(20);

    private final Duration deadline;
    private final BiConsumer<Runnable, Duration> scheduler;

    /**
     * @param deadline  how long a connection may take to send its first request head
     * @param scheduler runs a task after a delay, e.g. on the connector's scheduler
     */
    FirstRequestDeadline(Duration deadline, BiConsumer<Runnable, Duration> scheduler) {
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HttpConnection)
            scheduler.accept(() -> check(connection), deadline);
    }

    @Override
    public void onClosed(Connection connection) {
        // Nothing held: the check finds the connection closed.
    }

    private static void check(Connection connection) {
        EndPoint endPoint = connection.getEndPoint();
        if (endPoint.isOpen() && endPoint.getConnection() == connection && connection.getMessagesIn() == 0)
            endPoint.close();
    }

}
