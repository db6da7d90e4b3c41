package io.sluice.http;

import io.sluice.config.ApplicationPackageLoader;
import io.sluice.config.ConfigException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --skip-unsupported} starts a package with document processors, naming each one left out, and nothing else
 * changes: without it the package is refused, and with it access control is still refused.
 */
class SkipUnsupportedTest {

    private static final Path REFUSED = Path.of("src/test/resources/sample-packages-refused");

    private SluiceServer server;

    @AfterEach
    void stop() {
        if (server != null)
            server.stop();
    }

    @Test
    void documentProcessors_skipped_namesEach_andServes() throws Exception {
        Path app = REFUSED.resolve("document-processors");
        assertEquals(List.of("services.xml:8: document processor <documentprocessor id='com.example.Enricher'> in "
                             + "<container id='default'> skipped: documents are stored as fed, not as this processor "
                             + "would change them"),
                     ApplicationPackageLoader.loadSkippingUnsupported(app).skipped());

        server = Main.serve(LaunchOptions.parse("--app", app.toString(), "--ephemeral", "--port", "0", "--skip-unsupported"));
        var response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(server.uri(server.cluster().servers().get(0).id()).resolve("/document/v1/ns/doc/docid/1"))
                           .POST(HttpRequest.BodyPublishers.ofString("{\"fields\":{}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
    }

    @Test
    void documentProcessors_withoutTheOption_areRefusedAsBefore() {
        var e = assertThrows(ConfigException.class,
                             () -> Main.serve(LaunchOptions.parse("--app", REFUSED.resolve("document-processors").toString(),
                                                                  "--ephemeral", "--port", "0")));
        assertTrue(e.getMessage().startsWith("services.xml:6: <document-processing> with <documentprocessor>s in"),
                   e.getMessage());
    }

    @Test
    void accessControl_isRefusedEvenWithTheOption() {
        var e = assertThrows(ConfigException.class,
                             () -> Main.serve(LaunchOptions.parse("--app", REFUSED.resolve("client-authorize").toString(),
                                                                  "--ephemeral", "--port", "0", "--skip-unsupported")));
        assertTrue(e.getMessage().contains("<client-authorize>"), e.getMessage());
    }

}
