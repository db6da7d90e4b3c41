package io.sluice.feed.cli;

import io.sluice.feed.StubServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VisitCommandTest {

    @TempDir Path tmp;

    private static StubServer.Reply jsonl(String... lines) {
        return new StubServer.Reply(200, String.join("\n", lines) + "\n", "application/jsonl; charset=UTF-8");
    }

    /** Slice 0 has two pages (a0, then a1), slice 1 one (b0); page two of slice 0 fails while {@code failPageTwo}. */
    private static StubServer.Reply corpus(StubServer.Received request, AtomicBoolean failPageTwo) {
        String query = request.query();
        if (query.contains("sliceId=1"))
            return jsonl("{\"put\":\"id:ns:music::b0\",\"fields\":{}}", "{\"continuation\":{\"percentFinished\":100.0}}");
        if ( ! query.contains("continuation="))
            return jsonl("{\"put\":\"id:ns:music::a0\",\"fields\":{\"f\":1}}", "{\"continuation\":{\"token\":\"T0\",\"percentFinished\":50.0}}");
        if (failPageTwo.get()) return StubServer.Reply.json(400, "{\"message\":\"no such token\"}");
        return jsonl("{\"put\":\"id:ns:music::a1\",\"fields\":{\"f\":2}}", "{\"sessionStats\":{\"documentCount\":1}}",
                     "{\"continuation\":{\"percentFinished\":100.0}}");
    }

    /** {@code reply} for the server's slice 0 (or an unsliced request), an empty finished slice for the others. */
    private static StubServer.Reply sliceZero(StubServer.Received request, java.util.function.Supplier<StubServer.Reply> reply) {
        if (request.query().matches(".*sliceId=[1-9].*")) return jsonl("{\"continuation\":{\"percentFinished\":100.0}}");
        return reply.get();
    }

    private static String read(Path file) throws IOException { return Files.readString(file); }

    @Test
    void slices_writeOneJsonlFilePerSlice_withPutRenamedToId() throws IOException {
        List<String> queries = new CopyOnWriteArrayList<>();
        try (StubServer server = new StubServer(r -> { queries.add(r.query()); return corpus(r, new AtomicBoolean(false)); })) {
            CliRunner result = CliRunner.run("", "visit", "--endpoint", server.uri().toString(), "--cluster", "music", "--bucket-space", "default",
                                             "--slices", "2", "--output-dir", tmp.toString(), "--silent");
            assertEquals(0, result.exitCode(), result.err());
        }
        assertEquals("{\"id\":\"id:ns:music::a0\",\"fields\":{\"f\":1}}\n{\"id\":\"id:ns:music::a1\",\"fields\":{\"f\":2}}\n",
                     read(tmp.resolve("slice-0000.jsonl")));
        assertEquals("{\"id\":\"id:ns:music::b0\",\"fields\":{}}\n", read(tmp.resolve("slice-0001.jsonl")));
        assertTrue(queries.stream().anyMatch(q -> q.startsWith("cluster=music&stream=true&bucketSpace=default&slices=2&sliceId=0&continuation=T0&timeout=")), queries.toString());
    }

    @Test
    void rerunWithCheckpoint_continuesFromLastToken_withoutDuplicates() throws IOException {
        AtomicBoolean failPageTwo = new AtomicBoolean(true);
        List<String> queries = new CopyOnWriteArrayList<>();
        Path checkpoint = tmp.resolve("visit.checkpoint");
        Path out = tmp.resolve("out");
        try (StubServer server = new StubServer(r -> { queries.add(r.query()); return corpus(r, failPageTwo); })) {
            String[] args = { "visit", "--endpoint", server.uri().toString(), "--cluster", "music", "--bucket-space", "default", "--slices", "2",
                              "--output-dir", out.toString(), "--checkpoint", checkpoint.toString(), "--silent" };
            CliRunner first = CliRunner.run("", args);
            assertEquals(1, first.exitCode());
            assertTrue(first.err().contains("no such token"), first.err());
            assertTrue(read(checkpoint).contains("slice 0 token 42 T0"), read(checkpoint));
            assertTrue(read(checkpoint).contains("slice 1 done"), read(checkpoint));

            failPageTwo.set(false);
            queries.clear();
            CliRunner second = CliRunner.run("", args);
            assertEquals(0, second.exitCode(), second.err());
        }
        assertEquals(1, queries.size(), "only the unfinished slice, from its token: " + queries);
        assertTrue(queries.get(0).contains("sliceId=0&continuation=T0"), queries.toString());
        assertEquals("{\"id\":\"id:ns:music::a0\",\"fields\":{\"f\":1}}\n{\"id\":\"id:ns:music::a1\",\"fields\":{\"f\":2}}\n",
                     read(out.resolve("slice-0000.jsonl")));
    }

    @Test
    void brokenOffResponse_isResumedFromLastToken_andItsTailWrittenOnce() throws IOException {
        try (StubServer server = new StubServer(r -> r.query().contains("continuation=T0")
                ? jsonl("{\"put\":\"id:ns:music::a1\",\"fields\":{}}", "{\"continuation\":{\"percentFinished\":100.0}}")
                : jsonl("{\"put\":\"id:ns:music::a0\",\"fields\":{}}", "{\"continuation\":{\"token\":\"T0\",\"percentFinished\":50.0}}",
                        "{\"put\":\"id:ns:music::a1\",\"fields\":{}}"))) {
            CliRunner result = CliRunner.run("", "visit", "--endpoint", server.uri().toString(), "--cluster", "music", "--bucket-space", "default",
                                             "--slices", "1", "--output-dir", tmp.toString(), "--silent");
            assertEquals(0, result.exitCode(), result.err());
        }
        assertEquals("{\"id\":\"id:ns:music::a0\",\"fields\":{}}\n{\"id\":\"id:ns:music::a1\",\"fields\":{}}\n",
                     read(tmp.resolve("slice-0000.jsonl")));
    }

    /** Slice s has pages 0..2 of one document each; every other answer is a 429, 503, GOAWAY or dropped connection. */
    @Test
    void random429s503sGoAwaysAndDrops_everyDocumentWrittenOnce() throws IOException {
        java.util.Random random = new java.util.Random(7);
        AtomicInteger drops = new AtomicInteger();
        try (StubServer server = new StubServer(r -> {
            double dice;
            synchronized (random) { dice = random.nextDouble(); }
            if (dice < 0.2) return StubServer.Reply.json(429, "{\"message\":\"busy\"}");
            if (dice < 0.3) return StubServer.Reply.json(503, "{\"message\":\"unavailable\"}");
            if (dice < 0.4 && drops.incrementAndGet() < 6) return drops.get() % 2 == 0 ? StubServer.Reply.CLOSE : StubServer.Reply.GOAWAY;
            String slice = r.query().replaceAll(".*sliceId=(\\d+).*", "$1");
            int page = r.query().contains("continuation=P") ? Integer.parseInt(r.query().replaceAll(".*continuation=P(\\d+).*", "$1")) : 0;
            String document = "{\"put\":\"id:ns:music::s" + slice + "p" + page + "\",\"fields\":{}}";
            return page < 2 ? jsonl(document, "{\"continuation\":{\"token\":\"P" + (page + 1) + "\",\"percentFinished\":" + (page + 1) * 33 + "}}")
                            : jsonl(document, "{\"continuation\":{\"percentFinished\":100.0}}");
        })) {
            CliRunner result = CliRunner.run("", "visit", "--endpoint", server.uri().toString(), "--cluster", "music", "--bucket-space", "default",
                                             "--slices", "2", "--output-dir", tmp.toString(), "--silent");
            assertEquals(0, result.exitCode(), result.err());
        }
        for (int slice = 0; slice < 2; slice++) {
            StringBuilder expected = new StringBuilder();
            for (int page = 0; page < 3; page++) expected.append("{\"id\":\"id:ns:music::s").append(slice).append('p').append(page).append("\",\"fields\":{}}\n");
            assertEquals(expected.toString(), read(tmp.resolve("slice-000" + slice + ".jsonl")));
        }
    }

    @Test
    void jsonResponse_isUnderstoodToo() {
        try (StubServer server = new StubServer(r -> sliceZero(r, () -> StubServer.Reply.json(200,
                "{\"pathId\":\"/document/v1/\",\"documents\":[{\"id\":\"id:ns:music::x\",\"fields\":{\"a\":[1,2]}}],\"documentCount\":1}")))) {
            CliRunner result = CliRunner.run("", "visit", "--endpoint", server.uri().toString(), "--cluster", "music", "--bucket-space", "default",
                                             "--slices", "1", "--silent");
            assertEquals(0, result.exitCode(), result.err());
            assertEquals("{\"id\":\"id:ns:music::x\",\"fields\":{\"a\":[1,2]}}\n", result.out());
        }
    }

    @Test
    void throttled_isRetried() {
        AtomicInteger calls = new AtomicInteger();
        try (StubServer server = new StubServer(r -> sliceZero(r, () -> calls.getAndIncrement() == 0
                                                     ? StubServer.Reply.json(429, "{\"message\":\"busy\"}")
                                                     : jsonl("{\"put\":\"id:ns:music::x\",\"fields\":{}}", "{\"continuation\":{\"percentFinished\":100.0}}")))) {
            CliRunner result = CliRunner.run("", "visit", "--endpoint", server.uri().toString(), "--cluster", "music", "--bucket-space", "default",
                                             "--slices", "1", "--silent");
            assertEquals(0, result.exitCode(), result.err());
            assertEquals("{\"id\":\"id:ns:music::x\",\"fields\":{}}\n", result.out());
            assertEquals(2, calls.get());
        }
    }

    @Test
    void deleteWhere_followsContinuationsToCompletion() {
        List<String> requests = new CopyOnWriteArrayList<>();
        try (StubServer server = new StubServer(r -> {
            if (r.query().contains("sliceId=0&")) requests.add(r.method() + " " + r.path() + "?" + r.query().replaceAll("&timeout=\\d+ms", ""));
            return r.query().contains("continuation=")
                   ? StubServer.Reply.json(200, "{\"documentCount\":2}")
                   : StubServer.Reply.json(200, "{\"documentCount\":3,\"continuation\":\"C1\"}");
        })) {
            CliRunner result = CliRunner.run("", "visit", "--endpoint", server.uri().toString(), "--cluster", "music", "--bucket-space", "default",
                                             "--slices", "1", "--selection", "music.year<2000", "--delete-where");
            assertEquals(0, result.exitCode(), result.err());
            assertTrue(result.err().contains("delete-where: 20 documents"), result.err()); // slice 1 of 1 is 4 of the server's
        }
        assertEquals(List.of("DELETE /document/v1/?cluster=music&selection=music.year%3C2000&bucketSpace=default&slices=4&sliceId=0",
                             "DELETE /document/v1/?cluster=music&selection=music.year%3C2000&bucketSpace=default&slices=4&sliceId=0&continuation=C1"), requests);
    }

    @Test
    void updateWhere_withoutDocumentType_isRejected() throws IOException {
        Path update = Files.writeString(tmp.resolve("update.json"), "{\"fields\":{\"a\":{\"assign\":1}}}");
        CliRunner result = CliRunner.run("", "visit", "--endpoint", "http://localhost:1/", "--cluster", "music", "--bucket-space", "default",
                                         "--selection", "true", "--update-where", update.toString());
        assertEquals(1, result.exitCode());
        assertEquals("Error: Option '--update-where' needs '--namespace' and '--document-type'\n", result.err());
    }

    @Test
    void contentClusterStar_visitsEveryClusterTheServerNames_andBothBucketSpaces_asOneJsonArray() {
        List<String> queries = new CopyOnWriteArrayList<>();
        try (StubServer server = new StubServer(r -> {
            queries.add(r.query().replaceAll("&timeout=\\d+ms", ""));
            if (r.query().startsWith("cluster=%2A"))
                return StubServer.Reply.json(400, "{\"message\":\"Your Vespa deployment has no content cluster '*', only 'a', 'b'\"}");
            String cluster = r.query().replaceAll("cluster=([a-z]+)&.*", "$1");
            String space = r.query().replaceAll(".*bucketSpace=([a-z]+).*", "$1");
            return sliceZero(r, () -> jsonl("{\"put\":\"id:ns:t::" + cluster + "-" + space + "\",\"fields\":{}}",
                                            "{\"continuation\":{\"percentFinished\":100.0}}"));
        })) {
            CliRunner result = CliRunner.run("", "visit", "--endpoint", server.uri().toString(), "--make-feed", "--slices", "1", "--silent");
            assertEquals(0, result.exitCode(), result.err());
            List<String> documents = result.out().lines().filter(line -> ! line.equals("[") && ! line.equals("]"))
                                           .map(line -> line.replaceFirst("^,", "")).sorted().toList();
            assertEquals(List.of("{\"id\":\"id:ns:t::a-default\",\"fields\":{}}", "{\"id\":\"id:ns:t::a-global\",\"fields\":{}}",
                                 "{\"id\":\"id:ns:t::b-default\",\"fields\":{}}", "{\"id\":\"id:ns:t::b-global\",\"fields\":{}}"), documents);
            assertTrue(result.out().startsWith("[\n{\"id\""), result.out());
            assertTrue(result.out().endsWith("}\n]\n"), result.out());
            assertEquals(1, result.out().lines().filter(line -> line.startsWith("{")).count(), result.out());
        }
        assertEquals("cluster=%2A&wantedDocumentCount=1", queries.get(0));
        assertEquals(1 + 2 * 2 * 4, queries.size(), queries.toString()); // clusters × spaces × 4 server slices
    }

    @Test
    void vespaVisitFlagsWithoutAMeaningHere_areErrors_namingWhy() {
        CliRunner pretty = CliRunner.run("", "visit", "--endpoint", "http://localhost:1/", "--pretty-json");
        assertEquals(1, pretty.exitCode());
        assertEquals("Error: Option '--pretty-json' of vespa visit is not supported: sluice writes one document per line; " +
                     "pipe through 'jq .' to indent\n", pretty.err());
        CliRunner brotli = CliRunner.run("", "visit", "--endpoint", "http://localhost:1/", "--output-dir", "x", "--compression", "brotli");
        assertEquals(1, brotli.exitCode());
        assertEquals("Error: Option '--compression' takes none, gzip or zstd, but got 'brotli'\n", brotli.err());
        CliRunner gzipToStdout = CliRunner.run("", "visit", "--endpoint", "http://localhost:1/", "--compression", "gzip");
        assertEquals("Error: Option '--compression' needs '--output-dir' (to compress standard output, pipe it through gzip)\n", gzipToStdout.err());
        CliRunner both = CliRunner.run("", "visit", "--endpoint", "http://localhost:1/", "--cluster", "a", "--content-cluster", "b");
        assertEquals("Error: Options '--cluster' and '--content-cluster' are the same; give one\n", both.err());
    }

    @Test
    void outputThatFails_stopsTheVisit_withOneErrorAndExitCode1() {
        // 100 pages of a document per slice; the output takes 100 bytes, then fails as a closed pipe or a full disk do
        AtomicInteger requests = new AtomicInteger();
        try (StubServer server = new StubServer(r -> {
            requests.incrementAndGet();
            String slice = r.query().replaceAll(".*sliceId=(\\d+).*", "$1");
            int page = r.query().contains("continuation=") ? Integer.parseInt(r.query().replaceAll(".*continuation=P(\\d+).*", "$1")) : 0;
            String next = page + 1 < 100 ? "{\"continuation\":{\"token\":\"P" + (page + 1) + "\",\"percentFinished\":" + page + ".0}}"
                                         : "{\"continuation\":{\"percentFinished\":100.0}}";
            return jsonl("{\"put\":\"id:ns:music::" + slice + "-" + page + "\",\"fields\":{}}", next);
        })) {
            java.io.ByteArrayOutputStream taken = new java.io.ByteArrayOutputStream();
            java.io.OutputStream closing = new java.io.OutputStream() {
                @Override public void write(int b) throws IOException { write(new byte[] { (byte) b }, 0, 1); }
                @Override public void write(byte[] bytes, int offset, int length) throws IOException {
                    if (taken.size() + length > 100) throw new IOException("Broken pipe");
                    taken.write(bytes, offset, length);
                }
            };
            java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
            int exit = Main.run(new String[] { "visit", "--endpoint", server.uri().toString(), "--cluster", "music", "--bucket-space", "default",
                                               "--slices", "2", "--silent" },
                                new java.io.ByteArrayInputStream(new byte[0]), new java.io.PrintStream(closing, false),
                                new java.io.PrintStream(err, true));
            assertEquals(1, exit);
            assertEquals("Error: Failed writing output: it was closed, or could not be written (out of space?)\n", err.toString());
            assertTrue(requests.get() < 20, requests.get() + " requests: the visit went on after its output failed");
        }
    }

    @Test
    void toStandardOutput_oneSliceIsVisitedAsFourOfTheServers() {
        assertEquals(List.of("slices=4&sliceId=0", "slices=4&sliceId=1", "slices=4&sliceId=2", "slices=4&sliceId=3"),
                     serverSlices("--slices", "1"));
    }

    @Test
    void toStandardOutput_oneOfSeveralSlices_isTheServersSliceOfTheSameNumber_whateverItsSplit() {
        assertEquals(List.of("slices=2&sliceId=1"), serverSlices("--slices", "2", "--slice-id", "1"));
        assertEquals(List.of("slices=3&sliceId=0", "slices=3&sliceId=1", "slices=3&sliceId=2"), serverSlices("--slices", "3"));
    }

    /** The slices the server is asked for by a visit to standard output with {@code options}, sorted. */
    private static List<String> serverSlices(String... options) {
        List<String> queries = new CopyOnWriteArrayList<>();
        try (StubServer server = new StubServer(r -> {
            queries.add(r.query().replaceAll(".*(slices=\\d+&sliceId=\\d+).*", "$1"));
            return jsonl("{\"continuation\":{\"percentFinished\":100.0}}");
        })) {
            List<String> argv = new java.util.ArrayList<>(List.of("visit", "--endpoint", server.uri().toString(), "--cluster", "music",
                                                                  "--bucket-space", "default", "--silent"));
            argv.addAll(List.of(options));
            CliRunner result = CliRunner.run("", argv.toArray(String[]::new));
            assertEquals(0, result.exitCode(), result.err());
        }
        return queries.stream().sorted().toList();
    }

}
