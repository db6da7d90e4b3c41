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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code sluice diff} between two real Sluice servers over sockets, each with two content clusters and a global
 * document type: the same corpus fed to both, then k random mutations of B (new documents, removes, changed fields):
 * the diff reports exactly those k, writes exactly their ids, and after {@code --repair} (or feeding the repair files)
 * a second diff finds the two equal.
 */
class DiffEndToEndTest {

    private static final Map<String, String> SCHEMAS = Map.of(
            "music", "schema music { document music {\n field title type string { indexing: summary }\n field year type int { indexing: summary | attribute }\n" +
                     " field score type double { indexing: summary | attribute }\n field tags type map<string, int> { indexing: summary }\n } }\n",
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

    /** The ids B's mutations made differ from A, by kind. */
    private record Expected(Set<String> onlyInA, Set<String> onlyInB, Set<String> differing) {
        int size() { return onlyInA.size() + onlyInB.size() + differing.size(); }
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 1, 50 })
    void diff_reportsExactlyTheMutationsOfB_andRepairMakesThemEqual(int k) throws Exception {
        URI a = start("a"), b = start("b");
        List<String> ids = feedCorpus(List.of(a, b), 400);
        Expected expected = mutate(b, ids, k, new Random(k));
        assertEquals(k, expected.size());

        Path out = directory.resolve("out");
        Cli diff = Cli.run("diff", a.toString(), b.toString(), "--slices", "3", "--out", out.toString(), "--silent");
        assertEquals(k == 0 ? 0 : 1, diff.exit(), diff.err());
        assertSummary(diff.out(), expected, ids.size());
        assertEquals(expected.onlyInA(), idsIn(out.resolve("only-in-a.txt")));
        assertEquals(expected.onlyInB(), idsIn(out.resolve("only-in-b.txt")));
        assertEquals(expected.differing(), idsIn(out.resolve("differing.txt")));

        Cli repair = Cli.run("diff", a.toString(), b.toString(), "--repair", "--delete-extra", "--silent");
        assertEquals(k == 0 ? 0 : 1, repair.exit(), repair.err());
        assertTrue(repair.out().contains("\"repaired\":" + (expected.onlyInA().size() + expected.differing().size()) +
                                         ",\"deleted\":" + expected.onlyInB().size() + ",\"repairFailed\":0"), repair.out());

        Cli again = Cli.run("diff", a.toString(), b.toString(), "--slices", "2", "--silent");
        assertEquals(0, again.exit(), again.err() + again.out());
        assertSummary(again.out(), new Expected(Set.of(), Set.of(), Set.of()), ids.size());
    }

    @Test
    void repairWithoutDeleteExtra_leavesWhatOnlyBHas() throws Exception {
        URI a = start("a"), b = start("b");
        List<String> ids = feedCorpus(List.of(a, b), 300);
        Expected expected = mutate(b, ids, 30, new Random(7));
        assertTrue( ! expected.onlyInB().isEmpty() && ! expected.onlyInA().isEmpty() && ! expected.differing().isEmpty(), expected.toString());

        Cli repair = Cli.run("diff", a.toString(), b.toString(), "--repair", "--silent");
        assertEquals(1, repair.exit(), repair.err());

        Path out = directory.resolve("out");
        Cli again = Cli.run("diff", a.toString(), b.toString(), "--out", out.toString(), "--silent");
        assertEquals(1, again.exit(), again.err());
        assertSummary(again.out(), new Expected(Set.of(), expected.onlyInB(), Set.of()), ids.size());
        assertEquals(expected.onlyInB(), idsIn(out.resolve("only-in-b.txt")));
    }

    @Test
    void repairFiles_fedToB_makeItEqualToA() throws Exception {
        URI a = start("a"), b = start("b");
        List<String> ids = feedCorpus(List.of(a, b), 300);
        mutate(b, ids, 40, new Random(11));
        Path out = directory.resolve("out");
        assertEquals(1, Cli.run("diff", a.toString(), b.toString(), "--out", out.toString(), "--silent").exit());

        for (String file : List.of("repair.jsonl", "delete-extra.jsonl")) {
            Cli fed = Cli.run("feed", "--endpoint", b.toString(), "--file", out.resolve(file).toString(), "--silent", "--exit-on-feed-errors");
            assertEquals(0, fed.exit(), fed.err());
        }
        Cli again = Cli.run("diff", a.toString(), b.toString(), "--silent");
        assertEquals(0, again.exit(), again.err() + again.out());
    }

    @Test
    void fieldset_comparesOnlyItsFields() throws Exception {
        URI a = start("a"), b = start("b");
        List<String> ids = feedCorpus(List.of(a, b), 100);
        String changed = ids.stream().filter(id -> id.startsWith("id:ns:music::")).findFirst().orElseThrow();
        try (FeedClient client = FeedClientBuilder.create(b).build()) {
            FeedClient.await(List.of(client.update(DocumentId.of(changed), "{\"fields\":{\"title\":{\"assign\":\"other\"}}}", OperationParameters.empty())));
        }
        Cli years = Cli.run("diff", a.toString(), b.toString(), "--content-cluster", "music", "--bucket-space", "default",
                            "--fieldset", "music:year", "--silent");
        assertEquals(0, years.exit(), years.err() + years.out());
        Cli titles = Cli.run("diff", a.toString(), b.toString(), "--content-cluster", "music", "--bucket-space", "default",
                             "--fieldset=music:title", "--silent");
        assertEquals(1, titles.exit(), titles.err() + titles.out());
        assertTrue(titles.out().contains("\"differing\":1,"), titles.out());
    }

    @Test
    void unreachableEndpoint_isAnErrorWithExitCode2() throws Exception {
        URI a = start("a");
        Cli diff = Cli.run("diff", a.toString(), "http://127.0.0.1:1/", "--silent");
        assertEquals(2, diff.exit(), diff.err());
        assertTrue(diff.err().startsWith("Error: "), diff.err());
        assertEquals("", diff.out());
    }

    private static void assertSummary(String out, Expected expected, int documentsA) {
        Map<String, Object> summary = JsonTree.object(out.strip());
        assertEquals(expected.size() == 0, summary.get("equal"), out);
        assertEquals((long) expected.onlyInA().size(), summary.get("onlyInA"), out);
        assertEquals((long) expected.onlyInB().size(), summary.get("onlyInB"), out);
        assertEquals((long) expected.differing().size(), summary.get("differing"), out);
        assertEquals((long) documentsA, summary.get("documentsA"), out);
        assertEquals((long) (documentsA - expected.onlyInA().size() - expected.differing().size()), summary.get("same"), out);
    }

    private static Set<String> idsIn(Path file) throws IOException {
        return new TreeSet<>(Files.readAllLines(file));
    }

    /**
     * Applies {@code k} mutations to distinct documents of {@code endpoint}, each a new document, a remove, or a
     * changed field (of a music document's title, score or map entry, or a book's pages), chosen at random.
     */
    private static Expected mutate(URI endpoint, List<String> ids, int k, Random random) {
        Set<String> onlyInA = new TreeSet<>(), onlyInB = new TreeSet<>(), differing = new TreeSet<>();
        List<String> candidates = new ArrayList<>(ids);
        java.util.Collections.shuffle(candidates, random);
        List<CompletableFuture<Result>> results = new ArrayList<>();
        try (FeedClient client = FeedClientBuilder.create(endpoint).build()) {
            for (int i = 0; i < k; i++) {
                String id = candidates.get(i);
                switch (random.nextInt(3)) {
                    case 0 -> {
                        String added = random.nextBoolean() ? "id:ns:music::new-" + i : "id:ns:label::new-" + i;
                        String fields = added.contains(":music:") ? "{\"title\":\"new " + i + "\",\"year\":1}" : "{\"name\":\"new " + i + "\"}";
                        results.add(client.put(DocumentId.of(added), "{\"fields\":" + fields + "}", OperationParameters.empty()));
                        onlyInB.add(added);
                    }
                    case 1 -> {
                        results.add(client.remove(DocumentId.of(id), OperationParameters.empty()));
                        onlyInA.add(id);
                    }
                    default -> {
                        String update;
                        if (id.startsWith("id:ns:book::")) update = "{\"pages\":{\"increment\":1}}";
                        else if (id.startsWith("id:ns:label::")) update = "{\"name\":{\"assign\":\"renamed\"}}";
                        else update = switch (random.nextInt(3)) {
                            case 0 -> "{\"title\":{\"assign\":\"changed\"}}";
                            case 1 -> "{\"score\":{\"assign\":0.3}}";
                            default -> "{\"tags{b}\":{\"assign\":99}}";
                        };
                        results.add(client.update(DocumentId.of(id), "{\"fields\":" + update + "}", OperationParameters.empty()));
                        differing.add(id);
                    }
                }
            }
            FeedClient.await(results);
        }
        return new Expected(onlyInA, onlyInB, differing);
    }

    /** Feeds the same corpus to every endpoint: music documents with a map and a double, a tenth as many global labels, a fifth as many books. */
    private static List<String> feedCorpus(List<URI> endpoints, int count) {
        Map<String, String> corpus = new HashMap<>();
        for (int i = 0; i < count; i++) {
            corpus.put("id:ns:music::" + i, "{\"title\":\"song " + i + " \\\"q\\\" \\u00e6\",\"year\":" + (1000 + i % 300) +
                                            ",\"score\":" + (i / 8.0) + ",\"tags\":{\"a\":" + i + ",\"b\":" + (i % 7) + "}}");
            if (i % 10 == 0) corpus.put("id:ns:label::" + i, "{\"name\":\"label " + i + "\"}");
            if (i % 5 == 0) corpus.put("id:ns:book::" + i, "{\"title\":\"book " + i + "\",\"pages\":" + i + "}");
        }
        for (URI endpoint : endpoints) {
            List<CompletableFuture<Result>> results = new ArrayList<>();
            try (FeedClient client = FeedClientBuilder.create(endpoint).setConnectionsPerEndpoint(2).build()) {
                corpus.forEach((id, fields) -> results.add(client.put(DocumentId.of(id), "{\"fields\":" + fields + "}", OperationParameters.empty())));
                FeedClient.await(results);
            }
        }
        return List.copyOf(new TreeSet<>(corpus.keySet()));
    }

    private URI start(String name) throws IOException {
        return servers.start(name);
    }

}
