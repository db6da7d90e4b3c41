package io.sluice.http;

import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.internal.HttpConnection;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Closes an HTTP/1.1 connection whose request head takes too long to arrive: one that has not completed the head of its
 * first request within the deadline, and one seen in the middle of the same request head at two checks half a
 * deadline apart (a later request on a kept-alive connection). The idle timeout does not do it: a client trickling one
 * header byte at a time is never idle, and enough of them (slowloris) hold every file descriptor. A kept-alive
 * connection waiting quietly for its next request is left to the idle timeout; one that upgraded (h2c) is left alone.
 * Added to a connector as a bean, it listens to every connection the connector opens.
 */
final class RequestHeadDeadline implements Connection.Listener {

    /** How long a new connection may take to send its first request head. */
    static final Duration DEFAULT = Duration.ofSeconds(20);

    private final Duration deadline;
    private final BiConsumer<Runnable, Duration> scheduler;

    /**
     * @param deadline  how long a connection may take to send its first request head; a later head gets between
     *                  half of it and all of it
     * @param scheduler runs a task after a delay, e.g. on the connector's scheduler
     */
    RequestHeadDeadline(Duration deadline, BiConsumer<Runnable, Duration> scheduler) {
        this.deadline = Objects.requireNonNull(deadline, "deadline");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    @Override
    public void onOpened(Connection connection) {
        if (connection instanceof HttpConnection)
            scheduler.accept(new Check((HttpConnection) connection), deadline);
    }

    @Override
    public void onClosed(Connection connection) {
        // Nothing held: the next check finds the connection closed and stops.
    }

    /** One connection's checks; runs on the scheduler, one at a time. */
    private final class Check implements Runnable {

        private final HttpConnection connection;
        private long inProgress = -1; // messages in when a head was last seen in progress; -1 if none was

        Check(HttpConnection connection) {
            this.connection = connection;
        }

        @Override
        public void run() {
            EndPoint endPoint = connection.getEndPoint();
            if ( ! endPoint.isOpen() || endPoint.getConnection() != connection)
                return; // closed, or upgraded to HTTP/2
            long messages = connection.getMessagesIn();
            if (messages == 0) { // no first request head within the deadline
                endPoint.close();
                return;
            }
            HttpParser parser = connection.getParser(); // read racily: a stale state only delays a close by a check
            boolean headInProgress = parser.inHeaderState() && ! parser.isStart();
            if (headInProgress && inProgress == messages) { // the same head, still arriving half a deadline later
                endPoint.close();
                return;
            }
            inProgress = headInProgress ? messages : -1;
            scheduler.accept(this, deadline.dividedBy(2));
        }

    }

}
