package io.sluice.http;

import io.sluice.container.JsonTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The server as a separate process, fed with the feed client and killed with SIGKILL after a random number of
 * acknowledged operations, then restarted on the same data directory, several times over. After each restart, every
 * document must be as its last acknowledged operation left it (a put's or update's exact fields, or gone after a
 * remove), or, if an operation on it was in flight at the kill, as that operation would have left it; and the server
 * must report how long recovering from its log took.
 *
 * <p>Kill points follow from {@code -Dsluice.crash.seed=N} (CI varies it per run; a failure names the seed to rerun
 * with) and there are {@code -Dsluice.crash.kills=K} of them (default 3). The data directory is under the system temp
 * directory, on disk.
 */
class ServerCrashTest {

    private static final long SEED = Long.getLong("sluice.crash.seed", 20261122L);
    private static final int KILLS = Integer.getInteger("sluice.crash.kills", 3);
    private static final int DOCUMENTS = 200;
    private static final int MIN_ACKS_BEFORE_KILL = 50;
    private static final int MAX_ACKS_BEFORE_KILL = 2000;
    private static final Duration FEED_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern RECOVERY_LOG = Pattern.compile("Opened .* in (\\d+) ms, replaying (\\d+) bytes of write-ahead log");

    private static final String SCHEMA = "schema music {\n"
                                         + "  document music {\n"
                                         + "    field title type string { indexing: summary }\n"
                                         + "    field artist type string { indexing: summary }\n"
                                         + "    field year type int { indexing: summary | attribute }\n"
                                         + "    field tags type array<string> { indexing: summary }\n"
                                         + "  }\n"
                                         + "}\n";

    @TempDir
    Path directory;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES) // a bound for a hung child, not a timing assertion
    void sigkill_atRandomPoints_losesNoAcknowledgedOperation() throws Exception {
        Path application = application();
        Path data = directory.resolve("data");
        Random killPoints = new Random(SEED);
        List<Optional<Map<String, Object>>> documents = new ArrayList<>(Collections.nCopies(DOCUMENTS, Optional.empty()));
        List<CrashFeed.History> histories = null;
        for (int round = 0; round <= KILLS; round++) {
            String context = "Seed " + SEED + " (rerun with -Dsluice.crash.seed=" + SEED + "), start " + round + ": ";
            try (ServerProcess server = ServerProcess.start(application, data, directory, "server-" + round)) {
                if (histories != null) {
                    assertRecoveryReported(server, context);
                    documents = verify(server, documents, histories, context);
                }
                if (round < KILLS) {
                    int killAfter = MIN_ACKS_BEFORE_KILL + killPoints.nextInt(MAX_ACKS_BEFORE_KILL - MIN_ACKS_BEFORE_KILL);
                    histories = feedAndKill(server, round, killAfter, context);
                }
            }
        }
    }

    private Path application() throws IOException {
        Path application = directory.resolve("app");
        Files.createDirectories(application.resolve("schemas"));
        Files.writeString(application.resolve("schemas/music.sd"), SCHEMA);
        Files.writeString(application.resolve("services.xml"),
                          "<services version=\"1.0\">\n"
                          + "  <container id=\"default\" version=\"1.0\">\n"
                          + "    <http><server id=\"default\" port=\"8080\"/></http>\n"
                          + "    <document-api/>\n"
                          + "  </container>\n"
                          + "  <content id=\"music\" version=\"1.0\">\n"
                          + "    <min-redundancy>1</min-redundancy>\n"
                          + "    <documents><document type=\"music\" mode=\"index\"/></documents>\n"
                          + "    <engine><embedded/></engine>\n"
                          + "    <nodes><node hostalias=\"node1\" distribution-key=\"0\"/></nodes>\n"
                          + "  </content>\n"
                          + "</services>\n");
        return application;
    }

    /** Feeds until {@code killAfter} acks, SIGKILLs the server while operations are in flight, returns what was acked. */
    private static List<CrashFeed.History> feedAndKill(ServerProcess server, int round, int killAfter, String context)
            throws InterruptedException {
        CrashFeed feed = CrashFeed.start(server.uri(), SEED, round, DOCUMENTS, killAfter);
        boolean reached;
        int exitCode;
        try {
            reached = feed.awaitKillPoint(FEED_TIMEOUT);
            feed.expectFailures();
            int sent = feed.acknowledged();
            exitCode = server.kill();
            System.out.println(context + "kill point " + killAfter + " acks; killed after " + sent + " acks ("
                               + feed.acknowledged() + " acknowledged in all)");
        }
        finally {
            feed.close();
        }
        assertTrue(reached, context + "only " + feed.acknowledged() + " of " + killAfter + " operations were "
                            + "acknowledged within " + FEED_TIMEOUT + "; failures: " + feed.unexpectedFailures()
                            + "\n" + server.log());
        assertEquals(List.of(), feed.unexpectedFailures(), context + "operations failed before the kill");
        assertEquals(137, exitCode, context + "the server should have died from SIGKILL");
        return feed.histories();
    }

    /**
     * Checks every document against what was acknowledged before the kill, and returns what is stored now: the
     * starting point of the next round.
     */
    private static List<Optional<Map<String, Object>>> verify(ServerProcess server,
                                                              List<Optional<Map<String, Object>>> before,
                                                              List<CrashFeed.History> histories, String context)
            throws IOException, InterruptedException {
        List<Optional<Map<String, Object>>> stored = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (int document = 0; document < DOCUMENTS; document++) {
            CrashFeed.History history = histories.get(document);
            Optional<Map<String, Object>> acknowledged = before.get(document);
            for (CrashOperation operation : history.acknowledged())
                acknowledged = operation.applyTo(acknowledged);
            List<Optional<Map<String, Object>>> allowed = new ArrayList<>(List.of(acknowledged));
            if (history.unknown().isPresent()) // sent but not acknowledged: it may or may not have landed
                allowed.add(history.unknown().get().applyTo(acknowledged));
            Optional<Map<String, Object>> found = read(server, document);
            if ( ! allowed.contains(found))
                wrong.add("doc-" + document + " after " + history.acknowledged().size() + " acknowledged operations "
                          + history.acknowledged() + " and " + history.unknown().map(o -> "in flight " + o).orElse("none in flight")
                          + ": expected " + allowed + " but found " + found);
            stored.add(found);
        }
        if ( ! wrong.isEmpty())
            fail(context + wrong.size() + " documents differ from what was acknowledged:\n"
                 + String.join("\n", wrong.subList(0, Math.min(10, wrong.size()))));
        return stored;
    }

    private static Optional<Map<String, Object>> read(ServerProcess server, int document)
            throws IOException, InterruptedException {
        HttpResponse<String> response = server.get("/document/v1/crash/music/docid/doc-" + document);
        if (response.statusCode() == 404)
            return Optional.empty();
        assertEquals(200, response.statusCode(), "GET doc-" + document + ": " + response.body());
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) JsonTree.object(response.body()).get("fields");
        return Optional.of(Map.copyOf(fields));
    }

    /** The restarted server logged how long replaying its write-ahead log took, and reports it as a metric. */
    private static void assertRecoveryReported(ServerProcess server, String context)
            throws IOException, InterruptedException {
        Matcher recovery = RECOVERY_LOG.matcher(server.log());
        assertTrue(recovery.find(), context + "no recovery line in the log:\n" + server.log());
        assertTrue(Long.parseLong(recovery.group(2)) > 0, context + "nothing to replay after SIGKILL: " + recovery.group());
        Map<?, ?> seconds = server.metric("content.recovery_seconds", Map.of("clusterId", "music"));
        assertTrue(seconds.get("last") instanceof Number, context + "no content.recovery_seconds metric: " + seconds);
    }

}
