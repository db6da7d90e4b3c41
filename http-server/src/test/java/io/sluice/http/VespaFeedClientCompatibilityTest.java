package io.sluice.http;

import io.sluice.config.DocumentApiConfig;
import io.sluice.container.JsonTree;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.HttpClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.Provider;
import java.security.Security;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Compatibility with the official {@code com.yahoo.vespa:vespa-feed-client}: its {@code JsonFeeder} feeds 10 000
 * puts, updates and removes (ids with slashes, spaces, plus signs, {@code n=} and {@code g=}) over h2c and over h2+TLS,
 * then every document is checked by GET, and the whole corpus by a visit in slices.
 */
class VespaFeedClientCompatibilityTest {

    private static final int PUTS = 6000;

    @TempDir
    static Path certificates;

    static TestPki pki;

    private ServerFixture fixture;

    @BeforeAll
    static void createPki() {
        pki = TestPki.create(certificates);
    }

    @AfterEach
    void stop() {
        if (fixture != null)
            fixture.close();
    }

    @Test
    void jsonFeeder_overH2c_storesEveryDocument() throws Exception {
        fixture = DocumentServers.start(pki, DocumentServers.memoryHandler(DocumentApiConfig.defaults()));
        feed(fixture.uri(Transport.H2C_PRIOR_KNOWLEDGE, "/"), null);
        assertStored(Transport.H2C_PRIOR_KNOWLEDGE);
        assertVisited(Transport.H2C_PRIOR_KNOWLEDGE);
    }

    @Test
    void jsonFeeder_overTls_storesEveryDocument() throws Exception {
        fixture = DocumentServers.start(pki, DocumentServers.memoryHandler(DocumentApiConfig.defaults()));
        feed(fixture.uri(Transport.H2_TLS, "/"), pki.caFile());
        assertStored(Transport.H2_TLS);
        assertVisited(Transport.H2_TLS);
    }

    /** The id of document {@code i}: a mix of plain ids, ids needing escapes, and n= and g= ids. */
    static String id(int i) {
        switch (i % 4) {
            case 0: return "id:ns:music::doc-" + i;
            case 1: return "id:ns:music::a/b c+d:" + i;
            case 2: return "id:ns:music:n=" + (i % 7) + ":" + i;
            default: return "id:ns:music:g=group " + (i % 5) + ":" + i;
        }
    }

    /** 6000 puts, then an update of every third document and a removal of the next one: 10 000 operations. */
    static String operations() {
        StringBuilder feed = new StringBuilder();
        for (int i = 0; i < PUTS; i++)
            feed.append("{\"put\":\"").append(id(i)).append("\",\"fields\":{\"artist\":\"artist ").append(i)
                .append("\",\"year\":").append(i).append("}}\n");
        for (int i = 0; i < PUTS; i += 3) {
            feed.append("{\"update\":\"").append(id(i)).append("\",\"fields\":{\"title\":{\"assign\":\"title ").append(i).append("\"}}}\n");
            feed.append("{\"remove\":\"").append(id(i + 1)).append("\"}\n");
        }
        return feed.toString();
    }

    /** The fields document {@code i} must have after the feed, or null if it must be gone. */
    static Map<String, Object> expected(int i) {
        if (i % 3 == 1)
            return null;
        Map<String, Object> fields = new HashMap<>();
        fields.put("artist", "artist " + i);
        fields.put("year", (long) i);
        if (i % 3 == 0)
            fields.put("title", "title " + i);
        return fields;
    }

    /**
     * Feeds with vespa-feed-client in a class loader of its own: the feed client and Jetty {@code 12.0.x} jars the build
     * copies to {@code target/vespa-feed-client-lib}, plus this module's test classes for {@link VespaFeedDriver}.
     */
    private void feed(URI endpoint, Path caFile) throws Exception {
        List<?> outcome = feedWithVespaClient(endpoint, caFile, operations());
        assertEquals(List.of(), outcome.subList(1, outcome.size()));
        assertEquals(String.valueOf(PUTS + 2 * (PUTS / 3)), outcome.get(0));
    }

    /** {@link VespaFeedDriver#feed}'s outcome of feeding {@code operations} with vespa-feed-client in a loader of its own. */
    static List<?> feedWithVespaClient(URI endpoint, Path caFile, String operations) throws Exception {
        List<URL> urls = new ArrayList<>();
        urls.add(VespaFeedClientCompatibilityTest.class.getProtectionDomain().getCodeSource().getLocation());
        try (Stream<Path> jars = Files.list(Path.of("target", "vespa-feed-client-lib"))) {
            for (Path jar : jars.sorted().toList())
                urls.add(jar.toUri().toURL());
        }
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        // Not closed: JDK security caches may keep objects of the feed client's BouncyCastle after the feed.
        URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        try {
            thread.setContextClassLoader(loader);
            Method feed = loader.loadClass(VespaFeedClientCompatibilityTest.class.getPackageName() + ".VespaFeedDriver")
                                .getMethod("feed", String.class, String.class, String.class);
            try {
                return (List<?>) feed.invoke(null, endpoint.toString(), caFile == null ? null : caFile.toString(), operations);
            }
            finally {
                // The feed client installs BouncyCastle as a JVM-wide security provider; it must not outlive its loader.
                for (Provider provider : Security.getProviders())
                    if (provider.getClass().getClassLoader() == loader)
                        Security.removeProvider(provider.getName());
            }
        }
        finally {
            thread.setContextClassLoader(previous);
        }
    }

    private void assertStored(Transport transport) throws Exception {
        HttpClient http = fixture.client(transport);
        Map<Integer, String> mismatches = new ConcurrentHashMap<>();
        Semaphore inFlight = new Semaphore(64);
        CountDownLatch done = new CountDownLatch(PUTS);
        for (int i = 0; i < PUTS; i++) {
            int index = i;
            inFlight.acquire();
            http.newRequest(fixture.uri(transport, path(id(i)))).timeout(30, TimeUnit.SECONDS)
                .send(new BufferingResponseListener() {
                    @Override public void onComplete(org.eclipse.jetty.client.Result result) {
                        String problem = result.isFailed() ? String.valueOf(result.getFailure())
                                                           : mismatch(index, result.getResponse().getStatus(), getContentAsString());
                        if (problem != null)
                            mismatches.put(index, problem);
                        inFlight.release();
                        done.countDown();
                    }
                });
        }
        assertTrue(done.await(2, TimeUnit.MINUTES));
        assertEquals(Map.of(), mismatches);
    }

    /** Every live document exactly once, with exactly its fields, and no removed one, in 4 slices each paged to its end. */
    private void assertVisited(Transport transport) throws Exception {
        Map<String, Object> expected = new HashMap<>();
        for (int i = 0; i < PUTS; i++)
            if (expected(i) != null)
                expected.put(id(i), expected(i));
        HttpClient http = fixture.client(transport);
        Map<String, Object> visited = new HashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (int slice = 0; slice < 4; slice++) {
            String continuation = null;
            do {
                String query = "/document/v1/?cluster=music&slices=4&sliceId=" + slice + "&wantedDocumentCount=500"
                               + (continuation == null ? "" : "&continuation=" + encode(continuation));
                var response = http.newRequest(fixture.uri(transport, query)).timeout(30, TimeUnit.SECONDS).send();
                assertEquals(200, response.getStatus(), response.getContentAsString());
                Map<String, Object> page = JsonTree.object(response.getContentAsString());
                for (Object document : (List<?>) page.get("documents")) {
                    Map<?, ?> fields = (Map<?, ?>) document;
                    if (visited.put((String) fields.get("id"), fields.get("fields")) != null)
                        duplicates.add((String) fields.get("id"));
                }
                continuation = (String) page.get("continuation");
            } while (continuation != null);
        }
        assertEquals(List.of(), duplicates);
        assertEquals(expected, visited);
    }

    /** What is wrong with the answer to a GET of document {@code i}, or null if nothing. */
    private static String mismatch(int i, int status, String body) {
        Map<String, Object> expected = expected(i);
        if (expected == null)
            return status == 404 ? null : status + " " + body;
        Object fields = status == 200 ? JsonTree.object(body).get("fields") : null;
        return expected.equals(fields) ? null : status + " " + body;
    }

    /** The /document/v1 path of a document id, encoded as the feed client does. */
    static String path(String id) {
        String[] parts = id.split(":", 5);
        String keyValue = parts[3];
        String prefix = "/document/v1/" + parts[1] + "/" + parts[2];
        String rest = encode(parts[4]);
        if (keyValue.startsWith("n="))
            return prefix + "/number/" + keyValue.substring(2) + "/" + rest;
        if (keyValue.startsWith("g="))
            return prefix + "/group/" + encode(keyValue.substring(2)) + "/" + rest;
        return prefix + "/docid/" + rest;
    }

    private static String encode(String part) {
        return URLEncoder.encode(part, StandardCharsets.UTF_8);
    }


}
