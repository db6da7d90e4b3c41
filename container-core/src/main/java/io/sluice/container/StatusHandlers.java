package io.sluice.container;

/** Registers the built-in operational endpoints. */
public final class StatusHandlers {

    /** What built-in handlers are listed as coming from. */
    public static final String BUNDLE = "sluice-container-core";

    private StatusHandlers() { }

    /** As {@link #register(HandlerRegistry, StatusContext, String, MetricsWindow)}, for container cluster {@code default}. */
    public static void register(HandlerRegistry registry, StatusContext context) {
        register(registry, context, "default", new MetricsWindow(context.clock(), MetricsWindow.DEFAULT_PERIOD));
    }

    /**
     * Registers {@code /}, {@code /status.html}, {@code /ApplicationStatus}, {@code /state/v1/*},
     * {@code /metrics/v2/values} and {@code /prometheus/v1/values} in {@code registry}; the listings read the registry
     * when requested, so handlers registered later are listed too.
     *
     * @param clusterName the container cluster's id, a dimension of Vespa's node metrics
     * @param window      the period counters' rates are reported over
     */
    public static void register(HandlerRegistry registry, StatusContext context, String clusterName, MetricsWindow window) {
        registry.register(HandlerRegistration.of(BUNDLE, new BindingsOverviewHandler(registry), "http://*/"));
        registry.register(HandlerRegistration.of(BUNDLE, new StatusHtmlHandler(context.health()), "http://*/status.html"));
        registry.register(HandlerRegistration.of(BUNDLE, new ApplicationStatusHandler(context, registry),
                                                 "http://*/ApplicationStatus"));
        registry.register(HandlerRegistration.of(BUNDLE, new StateHandler(context), "http://*/state/v1", "http://*/state/v1/*"));
        registry.register(HandlerRegistration.of(BUNDLE, new VespaMetricsHandler(context, window, clusterName),
                                                 "http://*/metrics/v2/values", "http://*/prometheus/v1/values"));
    }

}
