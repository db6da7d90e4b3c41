package io.sluice.http;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Promise;
import org.eclipse.jetty.util.thread.Invocable;

import java.nio.ByteBuffer;

/**
 * Answers with the request body, and tells in headers what it saw: {@code X-Protocol} (the negotiated protocol),
 * {@code X-Raw-Path} (as sent), {@code X-Secure}, and {@code X-Content-Encoding} (the request's, after the server's inflation). A body that fails
 * to read (e.g. over a size limit) fails the callback with that failure.
 */
public class EchoHandler extends Handler.Abstract.NonBlocking {

    public static final String BINDING = "http://*/echo/*";

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        Content.Source.asByteArrayAsync(request, 16 << 20, Promise.Invocable.from(Invocable.InvocationType.NON_BLOCKING, body -> {
            response.getHeaders().put("X-Protocol", request.getConnectionMetaData().getProtocol());
            response.getHeaders().put("X-Raw-Path", request.getHttpURI().getPath());
            response.getHeaders().put("X-Secure", String.valueOf(request.isSecure()));
            String encoding = request.getHeaders().get(HttpHeader.CONTENT_ENCODING);
            response.getHeaders().put("X-Content-Encoding", encoding == null ? "none" : encoding);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/octet-stream");
            response.write(true, ByteBuffer.wrap(body), callback);
        }, callback::failed));
        return true;
    }

}
