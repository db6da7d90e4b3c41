package io.sluice.container;

import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Server;

/** An in-memory Jetty server around one handler, for handler tests without sockets. */
public final class LocalServer implements AutoCloseable {

    private final Server server = new Server();
    private final LocalConnector connector = new LocalConnector(server);

    private LocalServer(Handler handler) throws Exception {
        server.addConnector(connector);
        server.setErrorHandler(new JsonErrorHandler());
        server.setHandler(handler);
        server.start();
    }

    public static LocalServer start(Handler handler) throws Exception {
        return new LocalServer(handler);
    }

    /** Sends {@code method path} over HTTP/1.1 and returns the parsed response. */
    public HttpTester.Response request(String method, String path) throws Exception {
        String raw = connector.getResponse(method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        return HttpTester.parseResponse(raw);
    }

    /** Sends raw HTTP/1.1 bytes and returns the parsed response. */
    public HttpTester.Response raw(String request) throws Exception {
        return HttpTester.parseResponse(connector.getResponse(request));
    }

    public HttpTester.Response get(String path) throws Exception {
        return request("GET", path);
    }

    @Override
    public void close() {
        try {
            server.stop();
        }
        catch (Exception e) {
            throw new IllegalStateException("Stopping the local server failed", e);
        }
    }

}
