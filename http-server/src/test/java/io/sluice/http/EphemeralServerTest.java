package io.sluice.http;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code serve --ephemeral}: an application package whose content cluster uses the embedded engine is served from
 * memory, writes nothing into the package, prints its URL on one line and to the URL file, and stops at the end of
 * its standard input.
 */
class EphemeralServerTest {

    private static final Pattern URL_LINE = Pattern.compile("(?m)^sluice-url (http://127\\.0\\.0\\.1:(\\d+)/)$");

    @TempDir
    Path directory;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final HttpClient http = HttpClient.newHttpClient();
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    private PipedOutputStream stdin;

    @AfterEach
    void closeInput() throws IOException {
        if (stdin != null)
            stdin.close();
    }

    /** A package with an embedded content cluster and two servers, the second on a fixed port. */
    private Path application() throws IOException {
        Path app = directory.resolve("app");
        Files.createDirectories(app.resolve("schemas"));
        Files.writeString(app.resolve("schemas/music.sd"), DocumentServers.SCHEMA);
        Files.writeString(app.resolve("services.xml"),
                          "<services version=\"1.0\">\n"
                          + "<container id=\"default\" version=\"1.0\"><http><server id=\"plain\" port=\"8080\"/>"
                          + "<server id=\"other\" port=\"8081\"/></http><document-api/>"
                          + "<accesslog type=\"json\" file=\"access.log\"/></container>\n"
                          + "<content id=\"music\" version=\"1.0\"><min-redundancy>1</min-redundancy>"
                          + "<documents><document type=\"music\" mode=\"index\"/></documents>"
                          + "<engine><embedded/></engine>"
                          + "<nodes><node hostalias=\"node1\" distribution-key=\"0\"/></nodes></content>\n"
                          + "</services>\n");
        return app;
    }

    private int serve(String... args) throws IOException {
        stdin = new PipedOutputStream();
        var in = new PipedInputStream(stdin);
        return Main.run(Stream.concat(Stream.of("serve"), Stream.of(args)).toArray(String[]::new), in,
                        new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                        exit::complete);
    }

    private HttpResponse<String> send(String method, URI uri, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                                                                                   : HttpRequest.BodyPublishers.ofString(body))
                                    .build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<Path> files(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.sorted().toList();
        }
    }

    @Test
    void ephemeral_servesFromMemory_printsUrl_writesNothing_stopsAtEndOfInput() throws Exception {
        Path app = application();
        List<Path> before = files(app);
        Path urlFile = directory.resolve("url");

        assertEquals(0, serve("--app", app.toString(), "--ephemeral", "--port", "0", "--stop-on-stdin-eof",
                              "--url-file", urlFile.toString()), err.toString(StandardCharsets.UTF_8));

        Matcher line = URL_LINE.matcher(out.toString(StandardCharsets.UTF_8));
        assertTrue(line.find(), out.toString(StandardCharsets.UTF_8));
        URI url = URI.create(line.group(1));
        assertEquals(line.group(1) + "\n", Files.readString(urlFile));
        // The second server does not keep its fixed port either, so that parallel test servers do not collide.
        assertTrue(out.toString(StandardCharsets.UTF_8).matches("(?s).*Sluice listening on http://127\\.0\\.0\\.1:\\d+/ \\(server 'other'\\).*"));
        assertTrue( ! out.toString(StandardCharsets.UTF_8).contains(":8081/"), out.toString(StandardCharsets.UTF_8));

        assertEquals(200, send("GET", url.resolve("/state/v1/health"), null).statusCode());
        assertEquals(200, send("POST", url.resolve("/document/v1/ns/music/docid/1"), "{\"fields\":{\"artist\":\"Tom Waits\"}}").statusCode());
        HttpResponse<String> get = send("GET", url.resolve("/document/v1/ns/music/docid/1"), null);
        assertEquals(200, get.statusCode());
        assertTrue(get.body().contains("Tom Waits"), get.body());
        assertEquals(before, files(app)); // no data/ directory, no access log

        stdin.close();
        assertEquals(0, exit.get(60, TimeUnit.SECONDS));
        assertThrows(ConnectException.class, () -> send("GET", url.resolve("/state/v1/health"), null));
    }

    @Test
    void urlFileInMissingDirectory_failsStartWithMessage() throws Exception {
        Path app = application();
        Path urlFile = directory.resolve("missing").resolve("url");
        assertEquals(1, serve("--app", app.toString(), "--ephemeral", "--port", "0", "--stop-on-stdin-eof",
                              "--url-file", urlFile.toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("Cannot write the URL to --url-file " + urlFile),
                   err.toString(StandardCharsets.UTF_8));
    }

}
