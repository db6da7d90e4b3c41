package io.sluice.container;

/** Registers the built-in operational endpoints. */
public final class StatusHandlers {

    /** What built-in handlers are listed as coming from. */
    public static final String BUNDLE = "sluice-container-core";

    private StatusHandlers() { }

    /**
     * Registers {@code /}, {@code /status.html}, {@code /ApplicationStatus} and {@code /state/v1/*} in {@code registry};
     * the listings read the registry when requested, so handlers registered later are listed too.
     */
    public static void register(HandlerRegistry registry, StatusContext context) {
        registry.register(HandlerRegistration.of(BUNDLE, new BindingsOverviewHandler(registry), "http://*/"));
        registry.register(HandlerRegistration.of(BUNDLE, new StatusHtmlHandler(context.health()), "http://*/status.html"));
        registry.register(HandlerRegistration.of(BUNDLE, new ApplicationStatusHandler(context, registry),
                                                 "http://*/ApplicationStatus"));
        registry.register(HandlerRegistration.of(BUNDLE, new StateHandler(context), "http://*/state/v1", "http://*/state/v1/*"));
    }

}
