package io.sluice.config;

import java.util.List;
import java.util.Objects;

/**
 * A user {@code <handler id class>} with its {@code <binding>} patterns such as {@code http://*&#47;my/path/*}.
 *
 * @param id        the handler id
 * @param className the class to instantiate; it implements Jetty's {@code Handler} and has a public no-argument constructor
 * @param bindings  URI patterns, {@code scheme://host[:port]/path} with {@code *} globs
 * @param location  where the element is, for messages: {@code services.xml:<line>}
 */
public record HandlerConfig(String id, String className, List<String> bindings, String location) {

    public HandlerConfig {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(className, "className");
        bindings = List.copyOf(bindings);
        Objects.requireNonNull(location, "location");
        if (bindings.isEmpty())
            throw new ConfigException("<handler id='" + id + "'> has no <binding>");
        for (String binding : bindings)
            if ( ! binding.matches("[a-z*]+://[^/]+/.*"))
                throw new ConfigException("<handler id='" + id + "'> binding '" + binding
                                          + "' is not of the form scheme://host[:port]/path");
    }

    /** A handler not read from a file (tests, programmatic set-up): its location is just {@code services.xml}. */
    public HandlerConfig(String id, String className, List<String> bindings) {
        this(id, className, bindings, ApplicationPackageLoader.SERVICES);
    }

}
