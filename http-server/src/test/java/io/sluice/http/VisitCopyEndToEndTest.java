package io.sluice.http;

import io.sluice.container.JsonTree;
import io.sluice.feed.DocumentId;
import io.sluice.feed.FeedClient;
import io.sluice.feed.FeedClientBuilder;
import io.sluice.feed.OperationParameters;
import io.sluice.feed.Result;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code sluice visit} and {@code sluice copy} against real Sluice servers holding two content clusters, one
 * of them with a global document type: dumps compared document by document with what was fed, a JSON array refed to
 * another server, sharded gzip files complete after the visiting process is killed and rerun, and a copy between two
 * servers that leaves every document equal.
 */
class VisitCopyEndToEndTest {

    private static final Map<String, String> SCHEMAS = Map.of(
            "music", "schema music { document music {\n field title type string { indexing: summary }\n field year type int { indexing: summary | attribute }\n } }\n",
            "label", "schema label { document label {\n field name type string { indexing: summary }\n } }\n",
            "book", "schema book { document book {\n field title type string { indexing: summary }\n field pages type int { indexing: summary | attribute }\n } }\n");

    @TempDir Path directory;

    private TwoClusterServers servers;

    @BeforeEach
    void servers() {
        servers = new TwoClusterServers(directory, SCHEMAS);
    }

    @AfterEach
    void stop() {
        servers.close();
    }

    @Test
    void makeFeed_ofEveryClusterAndBothBucketSpaces_isOneArrayOfExactlyTheCorpus_thatFeedsAnotherServerToTheSame() throws Exception {
        URI source = start("source");
        Map<String, Object> corpus = feedCorpus(source, 300);
        Cli dumped = Cli.run("visit", "--endpoint", source.toString(), "--make-feed", "--slices", "3", "--silent");
        assertEquals(0, dumped.exit(), dumped.err());
        List<?> array = (List<?>) JsonTree.parse(dumped.out());
        assertEquals(corpus, documents(array.stream().map(Object.class::cast).toList()));

        URI target = start("target");
        Path feed = Files.writeString(directory.resolve("feed.json"), dumped.out());
        Cli fed = Cli.run("feed", "--endpoint", target.toString(), "--file", feed.toString(), "--silent", "--exit-on-feed-errors");
        assertEquals(0, fed.exit(), fed.err());
        assertEquals(corpus, visitAll(target));
    }

    @Test
    void vespaVisitFlags_selectExactlyWhatTheyNameInVespa() throws Exception {
        URI source = start("source");
        Map<String, Object> corpus = feedCorpus(source, 300);
        Cli visited = Cli.run("visit", "--endpoint", source.toString(), "--content-cluster", "music", "--bucket-space", "default",
                              "--selection", "music.year < 1100", "--field-set", "music:year", "--chunk-count", "7",
                              "--stream=false", "--json-lines", "--slices", "2", "--silent");
        assertEquals(0, visited.exit(), visited.err());
        Map<String, Object> expected = new HashMap<>();
        corpus.forEach((id, fields) -> {
            Object year = ((Map<?, ?>) fields).get("year");
            if (id.startsWith("id:ns:music::") && (Long) year < 1100) expected.put(id, Map.of("year", year));
        });
        assertTrue(expected.size() > 10 && expected.size() < 300, expected.toString());
        assertEquals(expected, documents(lines(visited.out()).stream().map(line -> (Object) JsonTree.object(line)).toList()));

        Cli global = Cli.run("visit", "--endpoint", source.toString(), "--content-cluster", "*", "--bucket-space", "global", "--silent");
        assertEquals(0, global.exit(), global.err());
        Map<String, Object> labels = new HashMap<>();
        corpus.forEach((id, fields) -> { if (id.startsWith("id:ns:label::")) labels.put(id, fields); });
        assertEquals(labels, documents(lines(global.out()).stream().map(line -> (Object) JsonTree.object(line)).toList()));
    }

    @Test
    void outputDir_gzippedRotatingFiles_areCompleteAfterTheVisitIsKilledAndRerun() throws Exception {
        URI source = start("source");
        Map<String, Object> corpus = feedCorpus(source, 1000);
        Path output = directory.resolve("dump");
        Path checkpoint = directory.resolve("dump.checkpoint");
        List<String> visit = List.of("visit", "--endpoint", source.toString(), "--slices", "2", "--output-dir", output.toString(),
                                     "--compression", "gzip", "--max-documents-per-file", "20", "--chunk-count", "5",
                                     "--checkpoint", checkpoint.toString(), "--silent");
        Process killed = cli(visit);
        try {
            while (killed.isAlive() && ! finalFileIn(output)) killed.waitFor(10, TimeUnit.MILLISECONDS);
        }
        finally {
            killed.destroyForcibly().waitFor();
        }
        Process rerun = cli(visit);
        assertEquals(0, rerun.waitFor(), new String(rerun.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));

        List<Object> dumped = new ArrayList<>();
        try (Stream<Path> files = Files.list(output)) {
            for (Path file : files.sorted().toList()) {
                assertTrue(file.toString().endsWith(".jsonl.gz"), file.toString());
                try (InputStream in = new GZIPInputStream(Files.newInputStream(file))) {
                    lines(new String(in.readAllBytes(), StandardCharsets.UTF_8)).forEach(line -> dumped.add(JsonTree.object(line)));
                }
            }
        }
        assertEquals(corpus, documents(dumped));
    }

    @Test
    void copy_betweenTwoServers_leavesEveryDocumentEqual_globalOnesIncluded() throws Exception {
        URI source = start("source");
        URI target = start("target");
        Map<String, Object> corpus = feedCorpus(source, 500);
        Path checkpoint = directory.resolve("copy.checkpoint");
        Cli copied = Cli.run("copy", "--from", source.toString(), "--to", target.toString(), "--slices", "3",
                             "--checkpoint", checkpoint.toString(), "--dead-letter", directory.resolve("dead.jsonl").toString());
        assertEquals(0, copied.exit(), copied.err());
        assertTrue(copied.err().contains("copy: " + corpus.size() + " visited  " + corpus.size() + " fed  0 failed"), copied.err());
        assertEquals(corpus, visitAll(target));
        assertTrue(Files.notExists(directory.resolve("dead.jsonl")));

        Cli again = Cli.run("copy", "--from", source.toString(), "--to", target.toString(), "--slices", "3",
                            "--checkpoint", checkpoint.toString());
        assertEquals(0, again.exit(), again.err());
        assertTrue(again.err().contains("copy: 0 visited  0 fed  0 failed"), again.err()); // all done by the checkpoint
    }

    @Test
    void copy_killedAndRerunWithItsCheckpoint_leavesEveryDocumentEqual() throws Exception {
        URI source = start("source");
        URI target = start("target");
        Map<String, Object> corpus = feedCorpus(source, 1000);
        Path checkpoint = directory.resolve("copy.checkpoint");
        List<String> copy = List.of("copy", "--from", source.toString(), "--to", target.toString(), "--slices", "2",
                                    "--chunk-count", "5", "--checkpoint", checkpoint.toString(), "--silent");
        Process killed = cli(copy);
        try {
            while (killed.isAlive() && ! hasToken(checkpoint)) killed.waitFor(10, TimeUnit.MILLISECONDS);
        }
        finally {
            killed.destroyForcibly().waitFor();
        }
        Cli rerun = Cli.run(copy.toArray(String[]::new));
        assertEquals(0, rerun.exit(), rerun.err());
        assertEquals(corpus, visitAll(target));
    }

    private static boolean hasToken(Path checkpoint) throws IOException {
        try {
            return Files.exists(checkpoint) && Files.readAllLines(checkpoint).stream().anyMatch(line -> line.contains(" token "));
        }
        catch (java.nio.file.NoSuchFileException e) {
            return false; // renamed over between the two calls
        }
    }

    private URI start(String name) throws IOException {
        return servers.start(name);
    }

    /** Feeds {@code count} music documents, a tenth as many global labels, and a fifth as many books; returns them by id. */
    private static Map<String, Object> feedCorpus(URI endpoint, int count) {
        Map<String, Object> corpus = new HashMap<>();
        List<CompletableFuture<Result>> results = new ArrayList<>();
        try (FeedClient client = FeedClientBuilder.create(endpoint).setConnectionsPerEndpoint(2).build()) {
            for (int i = 0; i < count; i++) {
                put(client, results, corpus, "id:ns:music::" + i, "{\"title\":\"song " + i + " \\\"q\\\" \\u00e6\",\"year\":" + (1000 + i % 300) + "}");
                if (i % 10 == 0) put(client, results, corpus, "id:ns:label::" + i, "{\"name\":\"label " + i + "\"}");
                if (i % 5 == 0) put(client, results, corpus, "id:ns:book::" + i, "{\"title\":\"book " + i + "\",\"pages\":" + i + "}");
            }
            FeedClient.await(results);
        }
        return corpus;
    }

    private static void put(FeedClient client, List<CompletableFuture<Result>> results, Map<String, Object> corpus, String id, String fields) {
        results.add(client.put(DocumentId.of(id), "{\"fields\":" + fields + "}", OperationParameters.empty()));
        corpus.put(id, JsonTree.object(fields));
    }

    /** Every document of the server, by id, as {@code sluice visit} finds them. */
    private static Map<String, Object> visitAll(URI endpoint) {
        Cli visited = Cli.run("visit", "--endpoint", endpoint.toString(), "--slices", "2", "--silent");
        assertEquals(0, visited.exit(), visited.err());
        return documents(lines(visited.out()).stream().map(line -> (Object) JsonTree.object(line)).toList());
    }

    /** The fields of each document ({@code {"id":…,"fields":…}}), by id; fails on a duplicate or another key. */
    private static Map<String, Object> documents(List<Object> documents) {
        Map<String, Object> byId = new HashMap<>();
        for (Object document : documents) {
            Map<?, ?> object = (Map<?, ?>) document;
            assertEquals(List.of("id", "fields"), List.copyOf(object.keySet()), object.toString());
            Object previous = byId.put((String) object.get("id"), object.get("fields"));
            assertEquals(null, previous, "duplicate " + object.get("id"));
        }
        return byId;
    }

    private static List<String> lines(String text) {
        return text.lines().filter(line -> ! line.isEmpty()).toList();
    }

    private static boolean finalFileIn(Path output) throws IOException {
        if ( ! Files.isDirectory(output)) return false;
        try (Stream<Path> files = Files.list(output)) {
            return files.anyMatch(file -> file.toString().endsWith(".jsonl.gz"));
        }
    }

    /** The command line in a process of its own, so it can be killed. */
    private static Process cli(List<String> args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                                                       "-cp", System.getProperty("java.class.path"), "io.sluice.feed.cli.Main"));
        command.addAll(args);
        return new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

}
