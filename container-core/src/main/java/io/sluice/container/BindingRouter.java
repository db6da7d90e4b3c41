package io.sluice.container;

import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Dispatches each request to the handler whose binding matches it most specifically (see {@link BindingPattern}),
 * and answers 404 {@code {"message": ...}} when none does or the handler declines. The mounted handlers are
 * children of this container, so they are started, stopped and given the server with it.
 */
public class BindingRouter extends Handler.AbstractContainer {

    private record Route(BindingPattern binding, int order, Handler handler) { }

    private final List<Route> routes;
    private final List<Handler> handlers;

    public BindingRouter(List<HandlerRegistration> registrations) {
        var routes = new ArrayList<Route>();
        var handlers = new ArrayList<Handler>();
        for (HandlerRegistration registration : registrations) {
            handlers.add(registration.handler());
            for (BindingPattern binding : registration.bindings())
                routes.add(new Route(binding, routes.size(), registration.handler()));
            addBean(registration.handler());
        }
        routes.sort(Comparator.comparing(Route::binding, BindingPattern.SPECIFIC_FIRST).thenComparing(Route::order));
        this.routes = List.copyOf(routes);
        this.handlers = List.copyOf(handlers);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        String host = Request.getServerName(request);
        int port = Request.getLocalPort(request);
        for (Route route : routes)
            if (route.binding().matches(host, port, path)) {
                if (route.handler().handle(request, response, callback))
                    return true;
                break;
            }
        JsonResponses.error(response, callback, HttpStatus.NOT_FOUND_404, "Nothing is bound to path '" + path + "'");
        return true;
    }

    @Override
    public List<Handler> getHandlers() {
        return handlers;
    }

}
