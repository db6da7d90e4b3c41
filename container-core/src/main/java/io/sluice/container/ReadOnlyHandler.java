package io.sluice.container;

import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** A non-blocking handler that serves GET (and HEAD) only; other methods get 405. */
abstract class ReadOnlyHandler extends Handler.Abstract.NonBlocking {

    @Override
    public final boolean handle(Request request, Response response, Callback callback) {
        String method = request.getMethod();
        if ( ! HttpMethod.GET.is(method) && ! HttpMethod.HEAD.is(method)) {
            JsonResponses.methodNotAllowed(response, callback, method, "GET, HEAD");
            return true;
        }
        return get(request, response, callback);
    }

    /** Serves a GET; returns false if there is nothing at this path. */
    protected abstract boolean get(Request request, Response response, Callback callback);

}
