package io.sluice.http;

import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** A user handler as an application would bind it with {@code <handler>}: public, with a no-argument constructor. */
public class HelloHandler extends Handler.Abstract.NonBlocking {

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        response.getHeaders().put("X-Protocol", request.getConnectionMetaData().getProtocol());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=utf-8");
        Content.Sink.write(response, true, "hello from " + Request.getPathInContext(request), callback);
        return true;
    }

}
