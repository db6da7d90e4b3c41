package io.sluice.http;

import io.sluice.config.AccessLogConfig;
import io.sluice.container.JsonTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AccessLogTest {

    @TempDir
    Path directory;

    @Test
    void enabled_writesOneJsonLinePerRequest() throws Exception {
        TestPki pki = TestPki.create(directory);
        Path file = directory.resolve("access.json");
        var fixture = ServerFixture.start(pki, ServerFixture.cluster(pki, List.of(), new AccessLogConfig(true, Optional.of(file))));
        try (fixture) {
            fixture.request(Transport.H1, "/status.html?probe=1").send();
            fixture.request(Transport.H2C_PRIOR_KNOWLEDGE, "/missing").send();
        }

        List<String> lines = Files.readAllLines(file);
        assertEquals(2, lines.size(), String.join("\n", lines));
        assertEquals(Map.of("method", "GET", "uri", "/status.html?probe=1", "protocol", "HTTP/1.1", "status", 200L, "bytes", 18L),
                     withoutVaryingFields(lines.get(0)));
        assertEquals(Map.of("method", "GET", "uri", "/missing", "protocol", "HTTP/2.0", "status", 404L,
                            "bytes", (long) "{\"message\":\"Nothing is bound to path '/missing'\"}".length()),
                     withoutVaryingFields(lines.get(1)));
    }

    @Test
    void disabled_writesNothing() throws Exception {
        TestPki pki = TestPki.create(directory);
        try (var fixture = ServerFixture.start(pki)) {
            fixture.request(Transport.H1, "/status.html").send();
        }
        try (var files = Files.list(directory)) {
            assertEquals(0, files.filter(path -> path.toString().endsWith(".json")).count());
        }
    }

    /** The line without time, duration and peer, after checking their types. */
    private static Map<String, Object> withoutVaryingFields(String line) {
        var json = new HashMap<>(JsonTree.object(line));
        Instant.parse((String) json.remove("time"));
        assertInstanceOf(Double.class, json.remove("duration"));
        assertTrue(((String) json.remove("peer")).startsWith("127.0.0.1:"), line);
        return json;
    }

}
