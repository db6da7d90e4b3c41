package io.sluice.container.document;

import io.sluice.container.FatalErrors;
import io.sluice.content.ContentBackend;
import io.sluice.content.memory.InMemoryContentBackend;
import io.sluice.config.DocumentApiConfig;
import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An {@link OutOfMemoryError} in request handling (here thrown by the backend, as a real one would be from anywhere)
 * is answered, not left hanging, and reaches {@link FatalErrors}, whose action the process's main sets to take the
 * server out of rotation and exit; a stack overflow (deeply nested input) or a bug is not fatal.
 */
class FatalErrorTest {

    private static final String DOC = "/document/v1/ns/music/docid/a";
    private final List<VirtualMachineError> reported = new CopyOnWriteArrayList<>();

    @AfterEach
    void restoreAction() {
        FatalErrors.onFatal(error -> { });
    }

    /** An in-memory backend whose puts throw {@code error}. */
    private static ContentBackend throwingOnPut(Error error) {
        ContentBackend real = InMemoryContentBackend.builder().clock(HandlerFixture.newClock()).build();
        return (ContentBackend) Proxy.newProxyInstance(ContentBackend.class.getClassLoader(),
                                                       new Class<?>[] { ContentBackend.class }, (proxy, method, args) -> {
            if (method.getName().equals("put"))
                throw error;
            try {
                return method.invoke(real, args);
            }
            catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    @Test
    void outOfMemoryInABackendCall_isAnswered500AndReportedAsFatal() throws Exception {
        FatalErrors.onFatal(reported::add);
        try (HandlerFixture fixture = HandlerFixture.create(throwingOnPut(new OutOfMemoryError("test heap")),
                                                            DocumentApiConfig.defaults())) {
            HttpTester.Response response = fixture.send("POST", DOC, "{\"fields\":{\"title\":\"x\"}}");
            assertEquals(500, response.getStatus());
            assertFalse(response.getContent().contains("OutOfMemoryError"), response.getContent());
            assertEquals(1, reported.size());
            assertEquals("test heap", reported.get(0).getMessage());
            assertEquals(404, fixture.send("GET", DOC.replace("/a", "/b")).getStatus(),
                         "the handler still answers (the process's action would have exited)");
        }
    }

    @Test
    void report_isFatalOnlyForVirtualMachineErrorsOtherThanStackOverflow() {
        FatalErrors.onFatal(reported::add);
        assertTrue(FatalErrors.report(new OutOfMemoryError("heap")));
        assertFalse(FatalErrors.report(new StackOverflowError()));
        assertFalse(FatalErrors.report(new IllegalStateException("bug")));
        assertFalse(FatalErrors.report(new AssertionError("bug")));
        assertEquals(1, reported.size());
    }

}
