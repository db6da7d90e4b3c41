package io.sluice.http;

import io.sluice.config.ApplicationPackage;
import io.sluice.config.ApplicationPackageLoader;
import io.sluice.config.ClientConfig;
import io.sluice.config.ConfigException;
import io.sluice.config.ContainerCluster;
import io.sluice.config.ContentCluster;
import io.sluice.config.HandlerConfig;
import io.sluice.container.JsonTree;
import io.sluice.container.document.ContentBackendFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Application packages shaped like those of Vespa's public sample-apps repository, written for this test (what each
 * covers: {@code src/test/resources/sample-packages/README.md}). Each package is loaded by the real loader and served
 * by the real server from its directory, on a loopback port the OS picks, with every content cluster in memory: it
 * warns about what it ignores ({@code expected-warnings.txt}), takes its documents ({@code feed.jsonl}, Vespa's feed
 * format) over /document/v1 and gives them back, and answers 501 with a JSON message where a Vespa request handler is
 * bound. The packages under {@code sample-packages-refused} use what Sluice refuses: start-up stops with one line
 * naming the element and its line ({@code expected-error.txt}).
 */
class SamplePackagesTest {

    private static final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private SluiceServer server;

    @AfterEach
    void stop() {
        if (server != null)
            server.stop();
    }

    static Stream<Named<Path>> packages() {
        return directories("sample-packages").map(SamplePackagesTest::named);
    }

    static Stream<Named<Path>> packagesWithHandlers() {
        return directories("sample-packages")
                .filter(directory -> ! ApplicationPackageLoader.load(directory).services().served().handlers().isEmpty())
                .map(SamplePackagesTest::named);
    }

    static Stream<Named<Path>> refusedPackages() {
        return directories("sample-packages-refused").map(SamplePackagesTest::named);
    }

    private static Named<Path> named(Path directory) {
        return Named.of(directory.getFileName().toString(), directory);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("packages")
    void load_warnsAboutWhatItIgnores_namingElementAndLine(Path directory) {
        List<String> warnings = ApplicationPackageLoader.load(directory).warnings();
        for (String expected : lines(directory.resolve("expected-warnings.txt")))
            assertTrue(warnings.stream().anyMatch(warning -> warning.contains(expected)),
                       "'" + expected + "' in " + String.join("\n", warnings));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("packages")
    void start_feedItsDocuments_getsThemBackAsFed(Path directory) throws Exception {
        ApplicationPackage application = ApplicationPackageLoader.load(directory);
        server = start(application);
        List<Map<String, Object>> operations = lines(directory.resolve("feed.jsonl")).stream().map(JsonTree::object).toList();
        assertFalse(operations.isEmpty(), "no documents in " + directory);
        for (Map<String, Object> operation : operations) {
            String id = (String) operation.get("put");
            var response = send("POST", path(id), "{\"fields\":" + json(operation.get("fields")) + "}", token(application));
            assertEquals(200, response.statusCode(), id + ": " + response.body());
        }
        for (Map<String, Object> operation : operations)
            assertStoredAsFed(application, (String) operation.get("put"), operation.get("fields"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("packagesWithHandlers")
    void vespaRequestHandler_isSkipped_itsBindingsAnswer501WithJsonMessage(Path directory) throws Exception {
        ApplicationPackage application = ApplicationPackageLoader.load(directory);
        server = start(application);
        for (HandlerConfig handler : application.services().served().handlers())
            for (String binding : handler.bindings()) {
                String path = binding.replaceFirst("^[a-z]+://[^/]*", "").replace("*", "anything");
                var response = send("GET", path, null, token(application));
                assertEquals(501, response.statusCode(), path + ": " + response.body());
                String message = (String) JsonTree.object(response.body()).get("message");
                assertTrue(message.contains("'" + handler.id() + "'") && message.contains("Vespa request handler"), message);
            }
    }

    @Test
    void tokenClients_requestWithoutToken_is401_readerWriting_is403() throws Exception {
        ApplicationPackage application = ApplicationPackageLoader.load(
                directories("sample-packages").filter(p -> p.endsWith("token-clients")).findFirst().orElseThrow());
        server = start(application);
        String doc = "/document/v1/notes/note/docid/n1";
        assertEquals(401, send("GET", doc, null, Optional.empty()).statusCode());
        var forbidden = send("POST", doc, "{\"fields\":{\"text\":\"x\"}}", Optional.of(tokenValue(AccessControl.variable("query-token"))));
        assertEquals(403, forbidden.statusCode(), forbidden.body());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusedPackages")
    void refusedConstruct_stopsStartUp_withOneLineNamingElementAndLine(Path directory) {
        String expected = lines(directory.resolve("expected-error.txt")).get(0);
        ConfigException e = assertThrows(ConfigException.class, () -> start(ApplicationPackageLoader.load(directory)));
        assertTrue(e.getMessage().startsWith(expected), e.getMessage());

        var err = new ByteArrayOutputStream();
        int code = Main.run(new String[] { "serve", "--app", directory.toString(), "--host", "127.0.0.1" },
                            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, code);
        assertEquals(List.of("Invalid application package " + directory + ": " + e.getMessage()),
                     err.toString(StandardCharsets.UTF_8).lines().toList());
    }

    /**
     * Serves the package as {@code serve} would, but on loopback ports the OS picks, with every content cluster in
     * memory, no graceful-stop wait, and token values from {@link #tokenValue}.
     */
    private static SluiceServer start(ApplicationPackage application) {
        ContainerCluster served = application.services().served();
        ContainerCluster cluster = new ContainerCluster(served.id(),
                                                        served.servers().stream().map(s -> s.withPort(0)).toList(),
                                                        served.documentApi(), served.handlers(), served.accessLog(),
                                                        Duration.ZERO, served.clients());
        ContentBackendFactory memory = Engines.memory();
        Map<ContentCluster.Engine, ContentBackendFactory> engines
                = Arrays.stream(ContentCluster.Engine.values()).collect(Collectors.toMap(Function.identity(), e -> memory));
        SluiceServer.Builder builder = SluiceServer.builder(cluster).host("127.0.0.1")
                                                   .environment(SamplePackagesTest::tokenValue);
        DocumentApi.mount(builder, application, cluster, engines);
        SluiceServer started = builder.build();
        started.start();
        return started;
    }

    /** The value this test gives each {@code <token>} through its environment variable. */
    private static String tokenValue(String variable) {
        return "value-of-" + variable.toLowerCase(Locale.ROOT);
    }

    /** The token of the first client that may write, if the package has {@code <clients>}. */
    private static Optional<String> token(ApplicationPackage application) {
        return application.services().served().clients().stream()
                          .filter(c -> c.permissions().contains(ClientConfig.Permission.WRITE) && ! c.tokenIds().isEmpty())
                          .findFirst()
                          .map(c -> tokenValue(AccessControl.variable(c.tokenIds().get(0))));
    }

    /** Reads the document from every content cluster of its type: at least one has it, each that has it as fed. */
    private void assertStoredAsFed(ApplicationPackage application, String id, Object fields) throws Exception {
        String type = id.split(":", 5)[2];
        List<String> holders = new ArrayList<>();
        for (ContentCluster cluster : application.services().contents()) {
            if (cluster.documents().stream().noneMatch(document -> document.type().equals(type)))
                continue;
            var response = send("GET", path(id) + "?cluster=" + cluster.id() + "&format.tensors=short-value", null,
                                token(application));
            if (response.statusCode() == 404)
                continue;
            assertEquals(200, response.statusCode(), id + " in " + cluster.id() + ": " + response.body());
            assertEquals(normalized(fields), normalized(JsonTree.object(response.body()).get("fields")),
                         id + " in " + cluster.id());
            holders.add(cluster.id());
        }
        assertFalse(holders.isEmpty(), id + " is in no content cluster");
    }

    private HttpResponse<String> send(String method, String path, String body, Optional<String> token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(base().resolve(path))
                                                 .timeout(Duration.ofSeconds(30))
                                                 .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                                                                              : HttpRequest.BodyPublishers.ofString(body));
        if (body != null)
            request.header("Content-Type", "application/json");
        token.ifPresent(value -> request.header("Authorization", "Bearer " + value));
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI base() {
        return server.uri(server.cluster().servers().get(0).id());
    }

    /** {@code /document/v1/<namespace>/<type>/docid/<id>}, or {@code group/<g>/<id>}, for a Vespa document id. */
    static String path(String id) {
        String[] parts = id.split(":", 5); // id, namespace, type, key-value, the rest
        String key = parts[3].isEmpty() ? "docid"
                     : parts[3].startsWith("g=") ? "group/" + encode(parts[3].substring(2))
                     : parts[3].startsWith("n=") ? "number/" + parts[3].substring(2)
                     : null;
        if (parts.length != 5 || ! parts[0].equals("id") || key == null)
            throw new IllegalArgumentException("Not a document id this test handles: '" + id + "'");
        return "/document/v1/" + encode(parts[1]) + "/" + encode(parts[2]) + "/" + key + "/" + encode(parts[4]);
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** Numbers as doubles, objects sorted by key: 1 and 1.0 are the same field value. */
    private static Object normalized(Object value) {
        if (value instanceof Number number)
            return number.doubleValue();
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> sorted = new TreeMap<>();
            map.forEach((key, entry) -> sorted.put((String) key, normalized(entry)));
            return sorted;
        }
        if (value instanceof List<?> list)
            return list.stream().map(SamplePackagesTest::normalized).toList();
        return value;
    }

    /** JSON for a value parsed by {@link JsonTree}. */
    private static String json(Object value) {
        if (value instanceof Map<?, ?> map)
            return map.entrySet().stream().map(e -> json(e.getKey()) + ":" + json(e.getValue()))
                      .collect(Collectors.joining(",", "{", "}"));
        if (value instanceof List<?> list)
            return list.stream().map(SamplePackagesTest::json).collect(Collectors.joining(",", "[", "]"));
        if (value instanceof String text)
            return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        return String.valueOf(value);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file).stream().map(String::strip).filter(line -> ! line.isEmpty()).toList();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Stream<Path> directories(String resource) {
        try (Stream<Path> children = Files.list(Path.of(SamplePackagesTest.class.getResource("/" + resource).toURI()))) {
            return children.filter(Files::isDirectory).sorted().toList().stream();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

}
