package io.sluice.container;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code /status.html}, the load balancer check: 200 {@code <title>OK</title>} while {@code up},
 * otherwise 404 with Vespa's text.
 */
public class StatusHtmlHandler extends ReadOnlyHandler {

    static final String OK = "<title>OK</title>\n";
    static final String NOT_IN_ROTATION = "No search backends available, VIP status disabled.";

    private final ServiceHealth health;

    public StatusHtmlHandler(ServiceHealth health) {
        this.health = health;
    }

    @Override
    protected boolean get(Request request, Response response, Callback callback) {
        boolean up = health.status() == ServiceHealth.Status.UP;
        response.setStatus(up ? HttpStatus.OK_200 : HttpStatus.NOT_FOUND_404);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, up ? "text/html;charset=utf-8" : "text/plain;charset=utf-8");
        Content.Sink.write(response, true, up ? OK : NOT_IN_ROTATION, callback);
        return true;
    }

}
