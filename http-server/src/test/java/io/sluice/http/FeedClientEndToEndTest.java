package io.sluice.http;

import io.sluice.container.JsonTree;
import io.sluice.feed.DocumentId;
import io.sluice.feed.FeedClient;
import io.sluice.feed.FeedClientBuilder;
import io.sluice.feed.FeedException;
import io.sluice.feed.OperationParameters;
import io.sluice.feed.Result;
import io.sluice.feed.VisitClient;
import io.sluice.feed.VisitParameters;
import io.sluice.feed.VisitSink;
import io.sluice.http.PackagedServer.Engine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Sluice's feed client and command line against a real Sluice server: feed over h2c and over mutual TLS,
 * visit back in slices, and compare every result and every document exactly; resume a visit from a checkpoint;
 * delete-where; and a client without a certificate refused by a server that needs one.
 */
class FeedClientEndToEndTest {

    private static final int SLICES = 4;
    private static final Corpus large = Corpus.of(2000);
    private static final Corpus small = Corpus.of(500);
    private static final String NO_CERTIFICATE = "the server asked for a client certificate, but none is configured";

    @TempDir
    static Path certificates;

    static TestPki pki;

    @TempDir
    Path directory;

    private PackagedServer server;

    @BeforeAll
    static void createPki() {
        pki = TestPki.create(certificates);
    }

    @AfterEach
    void stop() {
        if (server != null)
            server.close();
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void library_overH2c_getsEveryResult_andVisitFindsExactlyTheCorpus(Engine engine) throws Exception {
        server = PackagedServer.start(directory, pki, engine);
        assertEquals(large.results(), feed(h2c(), large));
        assertEquals(large.documents(), visit(h2c()));
    }

    @Test
    void library_overMutualTls_getsEveryResult_andVisitFindsExactlyTheCorpus() throws Exception {
        server = PackagedServer.start(directory, pki, Engine.EMBEDDED);
        assertEquals(large.results(), feed(mutualTls(), large));
        assertEquals(large.documents(), visit(mutualTls()));
    }

    @Test
    void library_withoutClientCertificate_failsTheHandshake_namingTheMissingCertificate() {
        server = PackagedServer.start(directory, pki, Engine.MEMORY);
        FeedClientBuilder anonymous = FeedClientBuilder.create(server.tls()).setCaCertificatesFile(pki.caFile());
        FeedException failure = assertThrows(FeedException.class, anonymous::build);
        assertTrue(failure.getMessage().startsWith("Failed handshake with server"), failure.getMessage());
        assertTrue(failure.getMessage().endsWith("; " + NO_CERTIFICATE), failure.getMessage());
    }

    @Test
    void cli_feedsAndVisits_overMutualTls_everyResultAndDocumentExactly() throws IOException {
        server = PackagedServer.start(directory, pki, Engine.EMBEDDED);
        Path feed = Files.writeString(directory.resolve("feed.jsonl"), large.jsonl());
        Cli fed = Cli.run(withTls("feed", "--file", feed.toString(), "--endpoint", server.tls().toString(), "--connections", "2",
                                  "--compression", "gzip", "--silent", "--show-all", "--benchmark", "--exit-on-feed-errors"));
        assertEquals(0, fed.exit(), fed.err());
        Map<String, Object> stats = JsonTree.object(fed.out());
        assertEquals((long) large.operations().size(), stats.get("feeder.ok.count"));
        assertEquals(0L, stats.get("feeder.error.count"));
        assertEquals(large.resultsById(), resultsById(fed.err()));

        Path output = directory.resolve("visited");
        Cli visited = Cli.run(withTls("visit", "--endpoint", server.tls().toString(), "--cluster", Corpus.CLUSTER, "--bucket-space", "default",
                                      "--slices", String.valueOf(SLICES), "--connections", "2", "--output-dir", output.toString(), "--silent"));
        assertEquals(0, visited.exit(), visited.err());
        assertEquals(large.documents(), documents(sliceFiles(output)));
    }

    @Test
    void cli_visitToStandardOutput_overH2c_printsEveryDocumentOnce() throws Exception {
        server = PackagedServer.start(directory, pki, Engine.MEMORY);
        assertEquals(small.results(), feed(h2c(), small));
        Cli visited = Cli.run("visit", "--endpoint", server.plain().toString(), "--cluster", Corpus.CLUSTER, "--bucket-space", "default",
                              "--slices", String.valueOf(SLICES), "--connections", "2", "--silent");
        assertEquals(0, visited.exit(), visited.err());
        assertEquals(small.documents(), documents(lines(visited.out())));
    }

    /**
     * A visit that stopped part-way: slice 0 after its first page, with half a line written to its partial file after its
     * checkpoint;
     * slice 1 done (its file in a form the CLI would not write, to show it is left alone); slice 2 not started, but
     * with a file left over; slice 3 done. The rerun completes it, writing every document once.
     */
    @Test
    void cli_visitWithCheckpoint_resumesWhereItStopped() throws Exception {
        server = PackagedServer.start(directory, pki, Engine.EMBEDDED);
        assertEquals(small.results(), feed(h2c(), small));
        Path output = directory.resolve("visited");
        Path checkpoint = directory.resolve("visit.checkpoint");
        String[] visit = { "visit", "--endpoint", server.plain().toString(), "--cluster", Corpus.CLUSTER, "--bucket-space", "default", "--slices",
                           String.valueOf(SLICES), "--connections", "2", "--output-dir", output.toString(),
                           "--checkpoint", checkpoint.toString(), "--silent" };
        Cli complete = Cli.run(visit);
        assertEquals(0, complete.exit(), complete.err());
        List<String> header = Files.readAllLines(checkpoint).subList(0, 3);
        assertTrue(header.get(1).startsWith("key "), header.toString());

        Map<String, Object> firstPage = JsonTree.object(get(server.plain(), "/document/v1/?cluster=" + Corpus.CLUSTER
                                                                            + "&slices=" + SLICES + "&sliceId=0&wantedDocumentCount=10"));
        String token = (String) firstPage.get("continuation");
        assertNotNull(token, "slice 0 must hold more than one page");
        StringBuilder written = new StringBuilder();
        for (Object document : (List<?>) firstPage.get("documents"))
            written.append(Corpus.render(document)).append('\n');
        byte[] slice0 = written.toString().getBytes(StandardCharsets.UTF_8);
        Files.write(output.resolve("slice-0000.jsonl.partial"), (written + "{\"id\":\"id:ns:music::torn").getBytes(StandardCharsets.UTF_8));
        String slice1 = Files.readString(output.resolve("slice-0001.jsonl")).replace("\":", "\" : ");
        Files.writeString(output.resolve("slice-0001.jsonl"), slice1);
        Files.writeString(output.resolve("slice-0002.jsonl"), "{\"id\":\"id:ns:music::left-over\",\"fields\":{}}\n");
        long slice3 = Files.size(output.resolve("slice-0003.jsonl"));
        List<String> interrupted = new ArrayList<>(header);
        interrupted.add("slice 0 token " + slice0.length + " " + token);
        interrupted.add("slice 1 done " + slice1.getBytes(StandardCharsets.UTF_8).length);
        interrupted.add("slice 2 start 0");
        interrupted.add("slice 3 done " + slice3);
        Files.write(checkpoint, interrupted);

        Cli resumed = Cli.run(visit);
        assertEquals(0, resumed.exit(), resumed.err());
        assertEquals(slice1, Files.readString(output.resolve("slice-0001.jsonl")));
        assertEquals(small.documents(), documents(sliceFiles(output)));
    }

    @Test
    void cli_deleteWhere_removesExactlyTheSelection() throws Exception {
        server = PackagedServer.start(directory, pki, Engine.EMBEDDED);
        assertEquals(small.results(), feed(h2c(), small));
        Cli deleted = Cli.run(withTls("visit", "--endpoint", server.tls().toString(), "--cluster", Corpus.CLUSTER, "--bucket-space", "default",
                                      "--selection", "music.year < 250", "--delete-where", "--slices", String.valueOf(SLICES),
                                      "--connections", "2", "--silent"));
        assertEquals(0, deleted.exit(), deleted.err());
        Map<String, Object> remaining = new HashMap<>();
        small.documents().forEach((id, fields) -> {
            if ((Long) fields.get("year") >= 250)
                remaining.put(id, fields);
        });
        assertTrue(remaining.size() < small.documents().size() && ! remaining.isEmpty());
        assertEquals(remaining, visit(h2c()));
    }

    @Test
    void cli_feedWithoutClientCertificate_exitsWith1_namingTheMissingCertificate() throws IOException {
        server = PackagedServer.start(directory, pki, Engine.MEMORY);
        Path feed = Files.writeString(directory.resolve("feed.jsonl"), small.jsonl());
        Cli fed = Cli.run("feed", "--file", feed.toString(), "--endpoint", server.tls().toString(),
                          "--ca-certificates", pki.caFile().toString(), "--silent");
        assertEquals(1, fed.exit(), fed.err());
        assertTrue(fed.err().startsWith("Error: Failed handshake with server"), fed.err());
        assertTrue(fed.err().contains("; " + NO_CERTIFICATE + "\n"), fed.err());
    }

    @Test
    void cli_visitWithoutClientCertificate_exitsWith1_atOnce_namingTheMissingCertificate() {
        server = PackagedServer.start(directory, pki, Engine.MEMORY);
        Cli visited = Cli.run("visit", "--endpoint", server.tls().toString(), "--cluster", Corpus.CLUSTER, "--bucket-space", "default",
                              "--ca-certificates", pki.caFile().toString(), "--slices", "1", "--silent");
        assertEquals(1, visited.exit(), visited.err());
        assertTrue(visited.err().startsWith("Error: Visiting slice 0 failed: "), visited.err());
        assertTrue(visited.err().endsWith("; " + NO_CERTIFICATE + "\n"), visited.err());
    }

    private FeedClientBuilder h2c() {
        return FeedClientBuilder.create(server.plain()).setConnectionsPerEndpoint(2);
    }

    private FeedClientBuilder mutualTls() {
        return FeedClientBuilder.create(server.tls()).setConnectionsPerEndpoint(2)
                                .setCertificate(pki.clientCertificateFile(), pki.clientKeyFile())
                                .setCaCertificatesFile(pki.caFile());
    }

    private static String[] withTls(String... args) {
        return Stream.concat(Stream.of(args), Stream.of("--certificate", pki.clientCertificateFile().toString(),
                                                        "--private-key", pki.clientKeyFile().toString(),
                                                        "--ca-certificates", pki.caFile().toString()))
                     .toArray(String[]::new);
    }

    /** Feeds every operation of {@code corpus} and returns the results' type names, in feed order. */
    private static List<String> feed(FeedClientBuilder builder, Corpus corpus) {
        List<CompletableFuture<Result>> results = new ArrayList<>();
        try (FeedClient client = builder.build()) {
            for (Corpus.Operation operation : corpus.operations()) {
                DocumentId id = DocumentId.of(operation.id());
                OperationParameters parameters = OperationParameters.empty().createIfNonExistent(operation.create());
                if (operation.condition().isPresent())
                    parameters = parameters.testAndSetCondition(operation.condition().get());
                switch (operation.kind()) {
                    case "put": results.add(client.put(id, operation.body(), parameters)); break;
                    case "update": results.add(client.update(id, operation.body(), parameters)); break;
                    default: results.add(client.remove(id, parameters));
                }
            }
            return FeedClient.await(results).stream().map(Result::typeName).toList();
        }
    }

    /** Visits everything in {@value #SLICES} slices at once with the library, and returns the fields by id. */
    private static Map<String, Object> visit(FeedClientBuilder builder) throws Exception {
        VisitParameters parameters = VisitParameters.of(Corpus.CLUSTER).withSlices(SLICES);
        ExecutorService threads = Executors.newFixedThreadPool(SLICES);
        try (VisitClient client = builder.buildVisitClient()) {
            List<Future<List<String>>> slices = new ArrayList<>();
            for (int slice = 0; slice < SLICES; slice++) {
                int id = slice;
                slices.add(threads.submit(() -> {
                    SliceDocuments sink = new SliceDocuments();
                    client.visit(parameters, id, Optional.empty(), sink);
                    assertTrue(sink.finished, "slice " + id + " must end with an empty continuation");
                    return sink.documents;
                }));
            }
            List<String> lines = new ArrayList<>();
            for (Future<List<String>> slice : slices)
                lines.addAll(slice.get(60, TimeUnit.SECONDS));
            return documents(lines);
        }
        finally {
            threads.shutdownNow();
        }
    }

    /** Keeps the documents of one slice, dropping those a rewind says will come again. */
    private static final class SliceDocuments implements VisitSink {

        final List<String> documents = new ArrayList<>();
        private final List<String> sinceToken = new ArrayList<>();
        boolean finished = false;

        @Override public void document(byte[] json, int offset, int length) {
            sinceToken.add(new String(json, offset, length, StandardCharsets.UTF_8));
        }

        @Override public void continuation(Optional<String> token, double percentFinished) {
            documents.addAll(sinceToken);
            sinceToken.clear();
            finished = token.isEmpty();
        }

        @Override public void rewind() {
            sinceToken.clear();
        }

    }

    /** The fields of each visited document ({@code {"id":…,"fields":…}} per line), by id; fails on a duplicate. */
    private static Map<String, Object> documents(List<String> lines) {
        Map<String, Object> documents = new HashMap<>();
        List<String> duplicates = new ArrayList<>();
        for (String line : lines) {
            Map<String, Object> document = JsonTree.object(line);
            assertEquals(List.of("id", "fields"), List.copyOf(document.keySet()), line);
            if (documents.put((String) document.get("id"), document.get("fields")) != null)
                duplicates.add((String) document.get("id"));
        }
        assertEquals(List.of(), duplicates);
        return documents;
    }

    private static List<String> lines(String text) {
        return text.lines().filter(line -> ! line.isEmpty()).toList();
    }

    private static List<String> sliceFiles(Path output) throws IOException {
        List<String> lines = new ArrayList<>();
        for (int slice = 0; slice < SLICES; slice++)
            lines.addAll(lines(Files.readString(output.resolve(String.format("slice-%04d.jsonl", slice)))));
        return lines;
    }

    /** {@code --show-all} lines, {@code <id>: success|conditionNotMet}, as each id's results in completion order. */
    private static Map<String, List<String>> resultsById(String err) {
        Map<String, List<String>> results = new LinkedHashMap<>();
        for (String line : lines(err)) {
            int separator = line.lastIndexOf(": ");
            if ( ! line.startsWith("id:") || separator < 0)
                continue;
            String result = line.substring(separator + 2);
            if (result.equals(Corpus.SUCCESS) || result.equals(Corpus.CONDITION_NOT_MET))
                results.computeIfAbsent(line.substring(0, separator), __ -> new ArrayList<>()).add(result);
        }
        return results;
    }

    private static String get(URI server, String pathAndQuery) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(server.resolve(pathAndQuery)).build(),
                                                    HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    /** One run of the feed command line, with what it printed. */
    private record Cli(int exit, String out, String err) {

        static Cli run(String... args) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = io.sluice.feed.cli.Main.run(args, new ByteArrayInputStream(new byte[0]),
                                                   new PrintStream(out, true, StandardCharsets.UTF_8),
                                                   new PrintStream(err, true, StandardCharsets.UTF_8));
            return new Cli(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }

    }

}
