package io.sluice.http;

import io.sluice.config.ConfigException;
import io.sluice.config.HandlerConfig;
import io.sluice.container.BindingPattern;
import io.sluice.container.HandlerRegistration;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

class UserHandlersTest {

    private static final ClassLoader loader = UserHandlersTest.class.getClassLoader();

    /** Not constructible without arguments. */
    public static class NeedsArgument extends HelloHandler {
        public NeedsArgument(String argument) { }
    }

    @Test
    void create_handlerClass_isRegisteredWithItsBindings() {
        HandlerRegistration registration = UserHandlers.create(
                new HandlerConfig("hello", HelloHandler.class.getName(), List.of("http://*/hello/*")), loader);
        assertEquals("hello", registration.id());
        assertEquals(HelloHandler.class.getName(), registration.className());
        assertEquals(List.of(BindingPattern.parse("http://*/hello/*")), registration.bindings());
        assertInstanceOf(HelloHandler.class, registration.handler());
    }

    @Test
    void create_classNotOnClassPath_isSkippedAndAnswers501() {
        HandlerRegistration registration = UserHandlers.create(
                new HandlerConfig("x", "com.example.VespaHandler", List.of("http://*/x"), "services.xml:7"), loader);
        assertEquals(List.of("x", "com.example.VespaHandler", UserHandlers.SKIPPED, List.of(BindingPattern.parse("http://*/x"))),
                     List.of(registration.id(), registration.className(), registration.bundle(), registration.bindings()));
        assertEquals("Handler 'x' (class 'com.example.VespaHandler') is a Vespa request handler, which Sluice cannot "
                     + "run; see the warning logged at start-up",
                     assertInstanceOf(UnavailableHandler.class, registration.handler()).message());
    }

    @Test
    void create_notAHandler_namesIt() {
        var e = assertThrows(ConfigException.class,
                             () -> UserHandlers.create(new HandlerConfig("x", "java.lang.String", List.of("http://*/x")), loader));
        assertEquals("services.xml: <handler id='x'>: class 'java.lang.String' does not implement org.eclipse.jetty.server.Handler", e.getMessage());
    }

    @Test
    void create_noNoArgumentConstructor_namesIt() {
        String name = NeedsArgument.class.getName();
        var e = assertThrows(ConfigException.class,
                             () -> UserHandlers.create(new HandlerConfig("x", name, List.of("http://*/x")), loader));
        assertEquals("services.xml: <handler id='x'>: class '" + name + "' has no public no-argument constructor", e.getMessage());
    }

}
