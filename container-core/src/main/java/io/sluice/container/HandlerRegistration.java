package io.sluice.container;

import org.eclipse.jetty.server.Handler;

import java.util.List;
import java.util.Objects;

/**
 * A handler mounted on the server: what {@code GET /} lists, and what the {@link BindingRouter} dispatches to.
 *
 * @param id        the handler id (the {@code <handler id>}, or the class name for built-ins)
 * @param className the class that handles requests, as listed; usually {@code handler.getClass().getName()}
 * @param bundle    where the class comes from (Sluice has no OSGi bundles: the module or jar name)
 * @param bindings  the URI patterns it serves
 * @param handler   the Jetty handler
 */
public record HandlerRegistration(String id, String className, String bundle, List<BindingPattern> bindings,
                                  Handler handler) {

    public HandlerRegistration {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(bundle, "bundle");
        bindings = List.copyOf(bindings);
        Objects.requireNonNull(handler, "handler");
        if (bindings.isEmpty())
            throw new IllegalArgumentException("Handler '" + id + "' has no bindings");
    }

    /**
     * The same registration with request bodies limited to {@code maxBytes} as the handler reads them. The router runs
     * inside the server's gzip handler, so the limit applies to inflated bytes; see {@link RequestSizeLimitHandler}.
     */
    public HandlerRegistration withRequestSizeLimit(long maxBytes) {
        return new HandlerRegistration(id, className, bundle, bindings, new RequestSizeLimitHandler(maxBytes, handler));
    }

    /**
     * A registration listed under the handler's class name, bound to the given patterns.
     *
     * @throws IllegalArgumentException naming a binding that does not parse
     */
    public static HandlerRegistration of(String bundle, Handler handler, String... bindings) {
        String className = handler.getClass().getName();
        return new HandlerRegistration(className, className, bundle,
                                       List.of(bindings).stream().map(BindingPattern::parse).toList(), handler);
    }

}
