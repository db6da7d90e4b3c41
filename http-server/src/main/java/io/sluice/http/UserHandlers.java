package io.sluice.http;

import io.sluice.config.ConfigException;
import io.sluice.config.HandlerConfig;
import io.sluice.container.BindingPattern;
import io.sluice.container.HandlerRegistration;
import org.eclipse.jetty.server.Handler;

import java.lang.reflect.InvocationTargetException;
import java.nio.file.Path;
import java.security.CodeSource;

/** Instantiates the {@code <handler>} classes of an application from the class path. */
public final class UserHandlers {

    private UserHandlers() { }

    /**
     * Creates the handler named by {@code config} with its public no-argument constructor.
     *
     * @throws ConfigException naming the class if it is missing, is not a Jetty {@link Handler}, cannot be
     *                         constructed, or a binding does not parse
     */
    public static HandlerRegistration create(HandlerConfig config, ClassLoader classLoader) {
        String name = config.className();
        Class<?> type;
        try {
            type = Class.forName(name, true, classLoader);
        }
        catch (ClassNotFoundException | LinkageError e) {
            throw new ConfigException("<handler id='" + config.id() + "'>: class '" + name + "' is not on the class path", e);
        }
        if ( ! Handler.class.isAssignableFrom(type))
            throw new ConfigException("<handler id='" + config.id() + "'>: class '" + name + "' does not implement "
                                      + Handler.class.getName());
        Handler handler;
        try {
            handler = (Handler) type.getConstructor().newInstance();
        }
        catch (NoSuchMethodException e) {
            throw new ConfigException("<handler id='" + config.id() + "'>: class '" + name + "' has no public no-argument constructor", e);
        }
        catch (InvocationTargetException e) {
            throw new ConfigException("<handler id='" + config.id() + "'>: constructing '" + name + "' failed: " + e.getCause(), e.getCause());
        }
        catch (ReflectiveOperationException e) {
            throw new ConfigException("<handler id='" + config.id() + "'>: cannot construct '" + name + "': " + e, e);
        }
        try {
            return new HandlerRegistration(config.id(), name, bundle(type),
                                           config.bindings().stream().map(BindingPattern::parse).toList(), handler);
        }
        catch (IllegalArgumentException e) {
            throw new ConfigException("<handler id='" + config.id() + "'>: " + e.getMessage(), e);
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
