package io.sluice.container.document;

import io.sluice.container.Json;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.Map;

/**
 * What Vespa serves at {@code /document/v1} when the container has no {@code <document-api>} (spec §7.4): 404
 * {@code {"error-code":"NOT_FOUND","message":"Document API is not configured in this cluster. ..."}} for everything.
 */
public final class DocumentApiNotConfiguredHandler extends Handler.Abstract.NonBlocking {

    static final String MESSAGE = "Document API is not configured in this cluster. "
                                  + "See https://docs.vespa.ai/en/reference/services-container.html#document-api";

    private static final byte[] BODY = Json.write(json -> {
        json.writeStartObject();
        json.writeStringField("error-code", "NOT_FOUND");
        json.writeStringField("message", MESSAGE);
        json.writeEndObject();
    });

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        new Exchange(request, response, callback).respond(HttpStatus.NOT_FOUND_404, BODY, Map.of());
        return true;
    }

}
