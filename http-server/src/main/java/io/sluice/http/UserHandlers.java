package io.sluice.http;

import io.sluice.config.ConfigException;
import io.sluice.config.HandlerConfig;
import io.sluice.container.BindingPattern;
import io.sluice.container.HandlerRegistration;
import org.eclipse.jetty.server.Handler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.security.CodeSource;

/** Instantiates the {@code <handler>} classes of an application from the class path. */
public final class UserHandlers {

    private static final Logger log = LoggerFactory.getLogger(UserHandlers.class);

    /** What {@code GET /} lists as the bundle of a handler that was skipped. */
    static final String SKIPPED = "skipped";

    private UserHandlers() { }

    /**
     * Creates the handler named by {@code config} with its public no-argument constructor. A class that is not on the
     * class path is taken for a Vespa request handler, which cannot run here: it is skipped with a warning, and its
     * bindings answer 501 with a JSON message naming it (see {@link #unavailable}).
     *
     * @throws ConfigException naming the class if it is not a Jetty {@link Handler}, cannot be constructed, or a
     *                         binding does not parse
     */
    public static HandlerRegistration create(HandlerConfig config, ClassLoader classLoader) {
        String name = config.className();
        Class<?> type;
        try {
            type = Class.forName(name, true, classLoader);
        }
        catch (ClassNotFoundException | LinkageError e) {
            HandlerRegistration skipped = unavailable(config);
            log.warn("{}: <handler id='{}'> skipped: class '{}' is not on Sluice's class path. Vespa request handlers "
                     + "(jdisc components from a bundle) cannot run in Sluice; a Sluice handler implements {}. Its "
                     + "bindings {} answer 501", config.location(), config.id(), name, Handler.class.getName(),
                     config.bindings());
            return skipped;
        }
        if ( ! Handler.class.isAssignableFrom(type))
            throw new ConfigException(config.location() + ": <handler id='" + config.id() + "'>: class '" + name + "' does not implement "
                                      + Handler.class.getName());
        Handler handler;
        try {
            handler = (Handler) type.getConstructor().newInstance();
        }
        catch (NoSuchMethodException e) {
            throw new ConfigException(config.location() + ": <handler id='" + config.id() + "'>: class '" + name + "' has no public no-argument constructor", e);
        }
        catch (InvocationTargetException e) {
            throw new ConfigException(config.location() + ": <handler id='" + config.id() + "'>: constructing '" + name + "' failed: " + e.getCause(), e.getCause());
        }
        catch (ReflectiveOperationException e) {
            throw new ConfigException(config.location() + ": <handler id='" + config.id() + "'>: cannot construct '" + name + "': " + e, e);
        }
        try {
            return new HandlerRegistration(config.id(), name, bundle(type),
                                           config.bindings().stream().map(BindingPattern::parse).toList(), handler);
        }
        catch (IllegalArgumentException e) {
            throw new ConfigException(config.location() + ": <handler id='" + config.id() + "'>: " + e.getMessage(), e);
        }
    }

    /** A registration for {@code config}'s bindings that answers every request with 501 naming the handler. */
    static HandlerRegistration unavailable(HandlerConfig config) {
        String message = "Handler '" + config.id() + "' (class '" + config.className() + "') is a Vespa request handler, "
                         + "which Sluice cannot run; see the warning logged at start-up";
        try {
            return new HandlerRegistration(config.id(), config.className(), SKIPPED,
                                           config.bindings().stream().map(BindingPattern::parse).toList(),
                                           new UnavailableHandler(message));
        }
        catch (IllegalArgumentException e) {
            throw new ConfigException(config.location() + ": <handler id='" + config.id() + "'>: " + e.getMessage(), e);
        }
    }

    /** The jar or directory the class was loaded from, by file name. */
    private static String bundle(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null)
            return "classpath";
        Path path = Path.of(source.getLocation().getPath());
        return path.getFileName() == null ? "classpath" : path.getFileName().toString();
    }

}
