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
 *
 * <p>The router itself never blocks, so Jetty may call it on the thread that parsed the request (for HTTP/2, without
 * handing each stream to another thread). A handler that declares itself blocking (Jetty's default) is called on
 * one of the server's threads instead; non-blocking ones, like {@code /document/v1}, are called at once.
 */
public class BindingRouter extends Handler.AbstractContainer {

    private record Route(BindingPattern binding, int order, Handler handler) { }

    private final List<Route> routes;
    private final List<Handler> handlers;
    private final boolean hostsMatter; // false when every binding takes any host: the host is then not looked up

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
        this.hostsMatter = this.routes.stream().anyMatch(route -> ! route.binding().anyHost());
    }

    @Override
    public InvocationType getInvocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = Request.getPathInContext(request);
        String host = hostsMatter ? Request.getServerName(request) : null;
        int port = Request.getLocalPort(request);
        for (Route route : routes)
            if (route.binding().matches(host, port, path)) {
                Handler handler = route.handler();
                if (handler.getInvocationType() == InvocationType.NON_BLOCKING)
                    return handler.handle(request, response, callback) || notFound(path, response, callback);
                request.getContext().execute(() -> handleBlocking(handler, path, request, response, callback));
                return true;
            }
        return notFound(path, response, callback);
    }

    private static void handleBlocking(Handler handler, String path, Request request, Response response, Callback callback) {
        try {
            if ( ! handler.handle(request, response, callback))
                notFound(path, response, callback);
        }
        catch (Throwable failure) {
            callback.failed(failure); // Jetty's error handling answers, as when a handler throws on its own thread
        }
    }

    private static boolean notFound(String path, Response response, Callback callback) {
        JsonResponses.error(response, callback, HttpStatus.NOT_FOUND_404, "Nothing is bound to path '" + path + "'");
        return true;
    }

    @Override
    public List<Handler> getHandlers() {
        return handlers;
    }

}
