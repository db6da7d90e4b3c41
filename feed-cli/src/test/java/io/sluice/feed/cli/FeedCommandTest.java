package io.sluice.feed.cli;

import com.github.luben.zstd.ZstdOutputStream;
import io.sluice.feed.StubServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FeedCommandTest {

    private static final String FEED = "{\"put\":\"id:ns:music::a\",\"fields\":{\"title\":\"x\"}}\n" +
                                       "{\"update\":\"id:ns:music::a\",\"create\":true,\"fields\":{\"title\":{\"assign\":\"y\"}}}\n" +
                                       "{\"remove\":\"id:ns:music::b\",\"condition\":\"music.title=='z'\"}\n";

    private static long stat(String json, String key) {
        Matcher matcher = Pattern.compile("\"" + Pattern.quote(key) + "\" : (\\d+)").matcher(json);
        assertTrue(matcher.find(), key + " in " + json);
        return Long.parseLong(matcher.group(1));
    }

    @Test
    void unknownOption_isRejected() {
        CliRunner result = CliRunner.run("", "feed", "--endpoitn", "http://localhost:8080/");
        assertEquals(1, result.exitCode());
        assertEquals("Error: Unknown option '--endpoitn'; see --help\n", result.err());
    }

    @Test
    void badInteger_namesOptionAndValue() {
        CliRunner result = CliRunner.run("", "feed", "--endpoint", "http://localhost:8080/", "--stdin", "--connections", "many");
        assertEquals(1, result.exitCode());
        assertEquals("Error: Option '--connections' needs an integer, but got 'many'\n", result.err());
    }

    @Test
    void fileAndStdin_together_areRejected() {
        CliRunner result = CliRunner.run("", "feed", "--endpoint", "http://localhost:8080/", "--stdin", "--file", "x.json");
        assertEquals("Error: Exactly one of '--file' and '--stdin' must be given\n", result.err());
    }

    @Test
    void help_listsRecoveryFlagsAndExitCodes() {
        CliRunner result = CliRunner.run("", "feed", "--help");
        assertEquals(0, result.exitCode());
        for (String text : List.of("--failures FILE", "--checkpoint FILE", "--max-rate OPS", "--exit-on-feed-errors", "Exit codes: 0", "may be applied twice"))
            assertTrue(result.out().contains(text), text + " in " + result.out());
    }

    @Test
    void version_printsVersion() {
        CliRunner result = CliRunner.run("", "feed", "--version");
        assertEquals(0, result.exitCode());
        assertEquals(FeedCommand.VERSION + "\n", result.out());
    }

    @Test
    void stdin_sendsEachOperationWithItsMethodAndParameters() {
        List<String> requests = new CopyOnWriteArrayList<>();
        try (StubServer server = new StubServer(r -> {
            if ( ! r.path().contains("/handshake/")) requests.add(r.method() + " " + r.path() + "?" + r.query().replaceAll("&?timeout=\\d+ms", "") + " " + r.body());
            return StubServer.Reply.json(200, "{}");
        })) {
            CliRunner result = CliRunner.run(FEED, "feed", "--endpoint", server.uri().toString(), "--stdin", "--silent");
            assertEquals(0, result.exitCode(), result.err());
            assertEquals(3, stat(result.err(), "feeder.ok.count"));
            assertEquals(0, stat(result.err(), "feeder.error.count"));
            assertTrue(result.err().endsWith("}"), "no trailing newline");
        }
        String put = "POST /document/v1/ns/music/docid/a? {\"fields\":{\"title\":\"x\"}}";
        String update = "PUT /document/v1/ns/music/docid/a?create=true {\"fields\":{\"title\":{\"assign\":\"y\"}}}";
        String remove = "DELETE /document/v1/ns/music/docid/b?condition=music.title%3D%3D%27z%27 ";
        assertEquals(Set.of(put, update, remove), Set.copyOf(requests));
        assertTrue(requests.indexOf(put) < requests.indexOf(update), "same id in feed order: " + requests);
    }

    @Test
    void compressedFiles_gzipOfSeveralMembers_andZstdOfSeveralFrames_areFedAsTheirContents(@TempDir Path tmp) throws IOException {
        int half = FEED.indexOf('\n') + 1;
        Path gzip = tmp.resolve("feed.jsonl.gz"), zstd = tmp.resolve("feed.jsonl.zst");
        try (OutputStream out = Files.newOutputStream(gzip)) { // two members, as a resumed dump writes them
            for (String part : List.of(FEED.substring(0, half), FEED.substring(half)))
                try (GZIPOutputStream member = new GZIPOutputStream(new NonClosing(out))) { member.write(part.getBytes(StandardCharsets.UTF_8)); }
        }
        try (OutputStream out = Files.newOutputStream(zstd)) {
            for (String part : List.of(FEED.substring(0, half), FEED.substring(half)))
                try (ZstdOutputStream frame = new ZstdOutputStream(new NonClosing(out))) { frame.write(part.getBytes(StandardCharsets.UTF_8)); }
        }
        for (Path file : List.of(gzip, zstd)) {
            List<String> requests = new CopyOnWriteArrayList<>();
            try (StubServer server = new StubServer(r -> {
                if ( ! r.path().contains("/handshake/")) requests.add(r.method() + " " + r.path());
                return StubServer.Reply.json(200, "{}");
            })) {
                CliRunner result = CliRunner.run("", "feed", "--endpoint", server.uri().toString(), "--file", file.toString(), "--silent");
                assertEquals(0, result.exitCode(), result.err());
                assertEquals(3, stat(result.err(), "feeder.ok.count"), file.toString());
            }
            assertEquals(Set.of("POST /document/v1/ns/music/docid/a", "PUT /document/v1/ns/music/docid/a", "DELETE /document/v1/ns/music/docid/b"),
                         Set.copyOf(requests), file.toString());
            CliRunner resumable = CliRunner.run("", "feed", "--endpoint", "http://localhost:1/", "--file", file.toString(),
                                                "--checkpoint", tmp.resolve("checkpoint").toString());
            assertEquals(1, resumable.exitCode());
            assertTrue(resumable.err().startsWith("Error: Option '--checkpoint' needs uncompressed JSONL input, but '" + file + "' is "),
                       resumable.err());
        }
    }

    /** Leaves the stream it writes to open when closed. */
    private static final class NonClosing extends FilterOutputStream {
        NonClosing(OutputStream out) { super(out); }
        @Override public void write(byte[] bytes, int offset, int length) throws IOException { out.write(bytes, offset, length); }
        @Override public void close() throws IOException { out.flush(); }
    }

    @Test
    void unreachableEndpoint_failsHandshake_exitOne() {
        StubServer server = new StubServer(r -> StubServer.Reply.json(200, "{}"));
        server.close();
        CliRunner result = CliRunner.run(FEED, "feed", "--endpoint", server.uri().toString(), "--stdin");
        assertEquals(1, result.exitCode());
        assertTrue(result.err().startsWith("Error: Failed handshake with server after "), result.err());
    }

    @Test
    void speedTest_generatesDocumentsSentWithDryRun() {
        List<String> queries = new CopyOnWriteArrayList<>();
        try (StubServer server = new StubServer(r -> { queries.add(r.path() + "?" + r.query()); return StubServer.Reply.json(200, "{}"); })) {
            CliRunner result = CliRunner.run("", "feed", "--endpoint", server.uri().toString(), "--speed-test",
                                             "--speed-test-duration", "1", "--test-payload-size", "100", "--silent");
            assertEquals(0, result.exitCode(), result.err());
            assertTrue(stat(result.err(), "feeder.ok.count") > 0, result.err());
        }
        String generated = queries.get(1);
        assertTrue(generated.matches("/document/v1/test/test/docid/[a-z0-9]{8}\\?dryRun=true&timeout=\\d+ms"), generated);
    }

    @Test
    void benchmark_printsStatsToStdout() {
        try (StubServer server = new StubServer(r -> StubServer.Reply.json(200, "{}"))) {
            CliRunner result = CliRunner.run(FEED, "feed", "--endpoint", server.uri().toString(), "--stdin", "--silent", "--benchmark");
            assertEquals(3, stat(result.out(), "http.response.count"));
            assertEquals(3, stat(result.out(), "200"));
        }
    }

    @Test
    void failedOperations_exitZero_unlessExitOnFeedErrors() {
        try (StubServer server = new StubServer(r -> StubServer.Reply.json(400, "{\"message\":\"bad\"}"))) {
            String endpoint = server.uri().toString();
            assertEquals(0, CliRunner.run(FEED, "feed", "--endpoint", endpoint, "--stdin", "--silent").exitCode());
            CliRunner strict = CliRunner.run(FEED, "feed", "--endpoint", endpoint, "--stdin", "--silent", "--exit-on-feed-errors", "--show-errors");
            assertEquals(1, strict.exitCode());
            assertTrue(strict.err().contains("(id:ns:music::b) Status 400 executing 'DELETE /document/v1/ns/music/docid/b': bad"), strict.err());
            assertEquals(3, stat(strict.err(), "feeder.error.count"));
        }
    }

    @Test
    void malformedOperation_exitsOne_namingLineAndColumn_afterStats() {
        CliRunner result = CliRunner.run("{\"put\":\"id:ns:music::a\",\"fields\":{}}\n{\"put\":\"id:ns:music::b\",\"fieldz\":{}}\n",
                                         "feed", "--dryrun", "--stdin", "--silent");
        assertEquals(1, result.exitCode());
        assertTrue(result.err().startsWith("Error: Unexpected field name 'fieldz' at offset 62 (line 2, column 25)\n"), result.err());
        assertEquals(1, stat(result.err(), "feeder.ok.count"));
    }

}
