package io.sluice.feed.cli;

import io.sluice.feed.StubServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The dead-letter file, the failure summary, the checkpoint and the rate cap, against servers on real sockets. */
class FeedRecoveryTest {

    @TempDir Path directory;

    /** A stand-in that stores puts (path to body) unless {@code reject} gives a failure status for the document. */
    private static final class Store {
        final Map<String, String> documents = new ConcurrentHashMap<>();
        final StubServer server;
        Store(Function<String, Integer> reject) {
            server = new StubServer(r -> {
                if (r.path().contains("/handshake/")) return StubServer.Reply.json(200, "{}");
                String id = r.path().substring(r.path().lastIndexOf('/') + 1);
                Integer status = reject.apply(id);
                if (status != null) return StubServer.Reply.json(status, "{\"message\":\"rejected " + id + "\"}");
                documents.put(id, r.body());
                return StubServer.Reply.json(200, "{}");
            });
        }
    }

    private static String put(int i) {
        return "{\"put\":\"id:ns:music::" + i + "\",\"fields\":{\"title\":\"song " + i + "\"}}";
    }

    private Path feed(int count) throws IOException {
        StringBuilder feed = new StringBuilder();
        for (int i = 0; i < count; i++) feed.append(put(i)).append('\n');
        return Files.writeString(directory.resolve("feed.jsonl"), feed);
    }

    private static Integer rejectFifthsAndSixths(String id) {
        int i = Integer.parseInt(id);
        return i % 5 == 0 ? Integer.valueOf(400) : i % 5 == 1 ? Integer.valueOf(507) : null;
    }

    @Test
    void failures_replayedIntoAFreshServer_giveExactlyTheMissingDocuments() throws IOException {
        Path input = feed(50);
        Path failures = directory.resolve("failures.jsonl");
        Store first = new Store(FeedRecoveryTest::rejectFifthsAndSixths);
        CliRunner run;
        try (StubServer server = first.server) {
            run = CliRunner.run("", "feed", "--endpoint", server.uri().toString(), "--file", input.toString(), "--silent",
                                "--failures", failures.toString());
        }
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = Files.readAllLines(failures);
        assertEquals(20, lines.size());
        assertTrue(lines.contains(put(5).replaceAll("}$", ",\"failure\":{\"status\":400,\"message\":\"Status 400 executing " +
                                                          "'POST /document/v1/ns/music/docid/5': rejected 5\"}}")), lines.toString());
        assertTrue(lines.contains(put(6).replaceAll("}$", ",\"failure\":{\"status\":507,\"message\":\"rejected 6\"}}")), lines.toString());

        Store second = new Store(id -> null);
        try (StubServer server = second.server) {
            CliRunner replay = CliRunner.run("", "feed", "--endpoint", server.uri().toString(), "--file", failures.toString(), "--silent");
            assertEquals(0, replay.exitCode(), replay.err());
        }
        Set<String> missing = new HashSet<>();
        for (int i = 0; i < 50; i++) if ( ! first.documents.containsKey(Integer.toString(i))) missing.add(Integer.toString(i));
        assertEquals(missing, second.documents.keySet());
        for (String id : missing)
            assertEquals("{\"fields\":{\"title\":\"song " + id + "\"}}", second.documents.get(id));
    }

    @Test
    void failures_areSummedUpOnStandardError_withTheFirstFew() throws IOException {
        Path input = feed(50);
        try (StubServer server = new Store(FeedRecoveryTest::rejectFifthsAndSixths).server) {
            CliRunner run = CliRunner.run("", "feed", "--endpoint", server.uri().toString(), "--file", input.toString(), "--silent");
            assertEquals(0, run.exitCode(), run.err());
            String summary = run.err().substring(run.err().lastIndexOf("}\n") + 2);
            String[] lines = summary.split("\n");
            assertEquals("20 operations failed (status 400: 10, status 507: 10); the first 10:", lines[0], summary);
            assertEquals(11, lines.length, summary);
            for (int i = 1; i < lines.length; i++)
                assertTrue(lines[i].matches("  id:ns:music::(\\d+)  status (400  Status 400 executing '.*': |507  )rejected \\1"), lines[i]);
        }
    }

    @Test
    void failuresFile_sameAsInput_isRefused() throws IOException {
        Path input = feed(1);
        CliRunner run = CliRunner.run("", "feed", "--dryrun", "--file", input.toString(), "--failures", input.toString());
        assertEquals(1, run.exitCode());
        assertEquals("Error: Option '--failures' must name another file than '--file'\n", run.err());
        assertEquals(put(0) + "\n", Files.readString(input));
    }

    @Test
    void checkpoint_ofStdin_isRefused() {
        CliRunner run = CliRunner.run("", "feed", "--dryrun", "--stdin", "--checkpoint", directory.resolve("cp").toString());
        assertEquals("Error: Option '--checkpoint' needs '--file': standard input cannot be resumed\n", run.err());
    }

    @Test
    void checkpoint_ofAJsonArray_isRefused() throws IOException {
        Path input = Files.writeString(directory.resolve("feed.json"), "  [" + put(0) + "]");
        CliRunner run = CliRunner.run("", "feed", "--dryrun", "--file", input.toString(), "--checkpoint", directory.resolve("cp").toString());
        assertEquals("Error: Option '--checkpoint' needs JSONL input, but '" + input + "' is a JSON array\n", run.err());
    }

    @Test
    void checkpoint_afterACompleteFeed_rerunSendsNothing() throws IOException {
        Path input = feed(20);
        Path checkpoint = directory.resolve("cp");
        Store store = new Store(id -> null);
        try (StubServer server = store.server) {
            String[] args = { "feed", "--endpoint", server.uri().toString(), "--file", input.toString(), "--silent", "--checkpoint", checkpoint.toString() };
            assertEquals(0, CliRunner.run("", args).exitCode());
            assertEquals(20, store.documents.size());
            store.documents.clear();
            CliRunner rerun = CliRunner.run("", args);
            assertEquals(0, rerun.exitCode(), rerun.err());
            assertTrue(rerun.err().startsWith("Continuing from checkpoint '" + checkpoint + "': offset " + (Files.size(input) - 1) + " (line 20)\n"), rerun.err());
            assertEquals(Map.of(), store.documents);
        }
    }

    /**
     * A feed process is killed while the server holds back document 500 and those after 540, and answers the rest:
     * the checkpoint stops right before 500 although 501 to 540 are acknowledged, and rerunning the command with the
     * same checkpoint sends 500 and everything after it: no document is lost, none before the checkpoint is sent
     * again, and the only ones sent twice are those acknowledged beyond it. Which documents are held back depends on
     * their ids, not on the order requests arrive in, which the client's connections do not fix.
     */
    @Test
    void checkpoint_killedFeed_rerun_losesNothingAndRepeatsOnlyWhatWasBeyondIt() throws Exception {
        int count = 2000, stuck = 500, lastAnswered = 540, pending = 64;
        Path input = feed(count);
        Path checkpoint = directory.resolve("cp");
        List<Long> lineEnds = new ArrayList<>();
        long offset = 0;
        for (int i = 0; i < count; i++) lineEnds.add(offset += put(i).length() + 1);

        Map<String, String> stored = new ConcurrentHashMap<>();
        StubServer first = new StubServer(r -> {
            if (r.path().contains("/handshake/")) return StubServer.Reply.json(200, "{}");
            String id = r.path().substring(r.path().lastIndexOf('/') + 1);
            int i = Integer.parseInt(id);
            if (i == stuck || i > lastAnswered) return StubServer.Reply.HANG;
            stored.put(id, r.body());
            return StubServer.Reply.json(200, "{}");
        });
        long before = lineEnds.get(stuck - 1) - 1; // the end of 499, before its newline
        Process process;
        try (first) {
            process = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
                                         Main.class.getName(), "feed", "--endpoint", first.uri().toString(), "--file", input.toString(),
                                         "--silent", "--max-pending", Integer.toString(pending), "--checkpoint", checkpoint.toString())
                    .redirectErrorStream(true).redirectOutput(directory.resolve("first-run.log").toFile()).start();
            // Everything before 500 is acknowledged, and 501 to 540 fit in the 63 operations that may pend besides 500.
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5); // a guard against hanging, never a pass condition
            while (checkpointOffset(checkpoint) < before || stored.size() < lastAnswered) {
                assertTrue(process.isAlive(), () -> "the feed ended early: " + read(directory.resolve("first-run.log")));
                assertTrue(System.nanoTime() < deadline, () -> "checkpoint at " + checkpointOffset(checkpoint) + ", " + stored.size() +
                                                              " stored: " + read(directory.resolve("first-run.log")));
                Thread.sleep(50);
            }
            Thread.sleep(1500); // one more save: the checkpoint must stay where it is, however long 500 pends
            assertEquals(before, checkpointOffset(checkpoint));
            process.destroyForcibly();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        }
        Map<String, String> firstRun = new HashMap<>(stored);
        Store second = new Store(id -> null);
        try (StubServer server = second.server) {
            CliRunner rerun = CliRunner.run("", "feed", "--endpoint", server.uri().toString(), "--file", input.toString(), "--silent",
                                            "--max-pending", Integer.toString(pending), "--checkpoint", checkpoint.toString());
            assertEquals(0, rerun.exitCode(), rerun.err());
            assertTrue(rerun.err().startsWith("Continuing from checkpoint '" + checkpoint + "': offset " + before + " (line " + stuck + ")\n"),
                       rerun.err());
        }
        Set<String> resent = new HashSet<>();
        for (int i = stuck; i < count; i++) resent.add(Integer.toString(i));
        assertEquals(resent, second.documents.keySet());
        Set<String> all = new HashSet<>(firstRun.keySet());
        all.addAll(second.documents.keySet());
        assertEquals(count, all.size(), "documents lost");
        Set<String> repeated = new HashSet<>(firstRun.keySet());
        repeated.retainAll(second.documents.keySet());
        Set<String> beyond = new HashSet<>();
        for (int i = stuck + 1; i <= lastAnswered; i++) beyond.add(Integer.toString(i));
        assertEquals(beyond, repeated);
    }

    private static long checkpointOffset(Path checkpoint) {
        try {
            for (String line : Files.readAllLines(checkpoint, StandardCharsets.UTF_8))
                if (line.startsWith("position ")) return Long.parseLong(line.split(" ")[1]);
        }
        catch (java.nio.file.NoSuchFileException e) {
            return -1;
        }
        catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return -1;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        }
        catch (IOException e) {
            return e.toString();
        }
    }

    @Test
    void maxRate_mustBePositive() {
        CliRunner run = CliRunner.run("", "feed", "--dryrun", "--stdin", "--max-rate", "0");
        assertEquals(1, run.exitCode());
        assertTrue(run.err().startsWith("Error: Option '--max-rate' "), run.err());
    }

    @Test
    void maxRate_feedsEverything() throws IOException {
        Path input = feed(30);
        Store store = new Store(id -> null);
        try (StubServer server = store.server) {
            CliRunner run = CliRunner.run("", "feed", "--endpoint", server.uri().toString(), "--file", input.toString(), "--silent",
                                          "--max-rate", "1000");
            assertEquals(0, run.exitCode(), run.err());
        }
        assertEquals(30, store.documents.size());
    }

}
