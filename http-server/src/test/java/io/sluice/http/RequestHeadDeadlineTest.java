package io.sluice.http;

import org.eclipse.jetty.http.HttpParser;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.DefaultHandler;
import org.eclipse.jetty.server.internal.HttpConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RequestHeadDeadlineTest {

    private final List<Runnable> tasks = new CopyOnWriteArrayList<>();
    private final List<Duration> delays = new CopyOnWriteArrayList<>();
    private final Server server = new Server();
    private final LocalConnector connector = new LocalConnector(server);

    @BeforeEach
    void start() throws Exception {
        connector.addBean(new RequestHeadDeadline(Duration.ofSeconds(20), (task, delay) -> {
            tasks.add(task);
            delays.add(delay);
        }));
        server.addConnector(connector);
        server.setHandler(new DefaultHandler());
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    private LocalConnector.LocalEndPoint connect() throws InterruptedException {
        LocalConnector.LocalEndPoint endPoint = connector.connect();
        for (int i = 0; i < 1000 && tasks.isEmpty(); i++)
            Thread.sleep(5); // the connection opens on another thread; no timing is asserted
        return endPoint;
    }

    @Test
    void headStillTricklingAtTheDeadline_closesTheConnection() throws Exception {
        LocalConnector.LocalEndPoint endPoint = connect();
        endPoint.addInput("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: a");
        assertEquals(List.of(Duration.ofSeconds(20)), delays);
        tasks.forEach(Runnable::run);
        endPoint.waitUntilClosedOrIdleFor(5, TimeUnit.SECONDS);
        assertFalse(endPoint.isOpen());
    }

    @Test
    void connectionThatSentARequest_staysOpen_whileItWaitsQuietly() throws Exception {
        LocalConnector.LocalEndPoint endPoint = connect();
        endPoint.addInput("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(endPoint.getResponse(false, 5, TimeUnit.SECONDS).startsWith("HTTP/1.1 404"));
        runNextCheck();
        runNextCheck();
        runNextCheck();
        assertTrue(endPoint.isOpen());
        assertEquals(Duration.ofSeconds(10), delays.get(delays.size() - 1), "later checks come half a deadline apart");
    }

    @Test
    void laterHeadStillArrivingAtTwoChecks_closesTheKeptAliveConnection() throws Exception {
        LocalConnector.LocalEndPoint endPoint = connect();
        endPoint.addInput("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(endPoint.getResponse(false, 5, TimeUnit.SECONDS).startsWith("HTTP/1.1 404"));
        runNextCheck(); // quiet: the connection waits for its next request
        endPoint.addInput("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: a");
        waitForParsing(endPoint);
        runNextCheck(); // a head in progress: noted
        assertTrue(endPoint.isOpen());
        endPoint.addInput("b");
        waitForParsing(endPoint);
        runNextCheck(); // the same head, still in progress
        endPoint.waitUntilClosedOrIdleFor(5, TimeUnit.SECONDS);
        assertFalse(endPoint.isOpen());
    }

    @Test
    void laterHeadCompletedBetweenChecks_keepsTheConnection() throws Exception {
        LocalConnector.LocalEndPoint endPoint = connect();
        endPoint.addInput("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
        assertTrue(endPoint.getResponse(false, 5, TimeUnit.SECONDS).startsWith("HTTP/1.1 404"));
        endPoint.addInput("GET / HTTP/1.1\r\nHost: x\r\nX-Slow: a");
        waitForParsing(endPoint);
        runNextCheck(); // a head in progress: noted
        endPoint.addInput("\r\n\r\n");
        assertTrue(endPoint.getResponse(false, 5, TimeUnit.SECONDS).startsWith("HTTP/1.1 404"));
        runNextCheck(); // another message since: not the same head
        assertTrue(endPoint.isOpen());
    }

    /** Runs the one check that is due, which may schedule the next. */
    private void runNextCheck() {
        Runnable task = tasks.remove(0);
        task.run();
    }

    /** Waits until the connection's thread has parsed into a request head; no timing is asserted. */
    private static void waitForParsing(LocalConnector.LocalEndPoint endPoint) throws InterruptedException {
        HttpParser parser = ((HttpConnection) endPoint.getConnection()).getParser();
        for (int i = 0; i < 2000 && parser.isStart(); i++)
            Thread.sleep(5);
        assertFalse(parser.isStart(), "the head was not parsed");
    }

}
