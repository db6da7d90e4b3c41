package io.sluice.container;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The handlers a server mounts, built-in and user, in registration order. The seam for later handlers
 * (e.g. {@code /document/v1}): one more {@link #register} before the server starts.
 * Thread-safe; the listing handler reads it while requests are served.
 */
public final class HandlerRegistry {

    private final List<HandlerRegistration> registrations = new ArrayList<>();
    private final Set<String> ids = new HashSet<>();

    /**
     * Adds a handler.
     *
     * @throws IllegalArgumentException if a handler with the same id is already registered
     */
    public synchronized HandlerRegistry register(HandlerRegistration registration) {
        if ( ! ids.add(registration.id()))
            throw new IllegalArgumentException("A handler with id '" + registration.id() + "' is already registered");
        registrations.add(registration);
        return this;
    }

    /** The registered handlers, in registration order. */
    public synchronized List<HandlerRegistration> registrations() {
        return List.copyOf(registrations);
    }

}
