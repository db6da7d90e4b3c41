package io.sluice.http;

import io.sluice.container.JsonTree;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A failing fsync is never a success. The server runs as a separate process under libfiu's {@code fiu-run -x}, whose
 * preloaded wrappers make the {@code fsync}/{@code fdatasync} calls RocksDB makes fail with a chosen errno once
 * {@code fiu-ctrl} enables them, in the middle of a feed. The feed records every write's answer and whether it was
 * sent after the failure was enabled; the checks: no write sent after that is answered 200, later ones answer 503
 * naming the storage error, health is down with that message, GETs and visits still answer, and after a restart with
 * fsync working every acknowledged document is there and no write refused with 503 is.
 *
 * <p>Needs {@code fiu-run} and {@code fiu-ctrl} ({@code apt-get install fiu-utils}); skipped without them, and
 * {@code .ci/run} installs them.
 */
class FsyncFailureTest {

    private static final int EIO = 5;
    private static final int ENOSPC = 28;
    private static final String EIO_TEXT = "Input/output error";
    private static final String ENOSPC_TEXT = "No space left on device";
    private static final Pattern LOG_FAILED_LINE = Pattern.compile("The write-ahead log of the embedded store at .* failed");

    @TempDir
    Path directory;

    @BeforeAll
    static void needsLibfiu() {
        Assumptions.assumeTrue(onPath("fiu-run") && onPath("fiu-ctrl"),
                               "fiu-run and fiu-ctrl are not installed (apt-get install fiu-utils): skipping the tests "
                               + "that fail fsync in a server process");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES) // a bound for a hung child, not a timing assertion
    void fdatasyncEio_midFeed_noLaterWriteIs200_writesAnswer503_healthDown_readsGoOn() throws Exception {
        try (ServerProcess server = startUnderFiu("eio")) {
            FsyncFeed.Result feed = feedThroughFailure(server, "enable name=posix/io/sync/*,failinfo=" + EIO, false);

            assertNoAcknowledgementAfterTheFailure(feed);
            assertRefusedNaming(feed, EIO_TEXT);
            assertRemoveRefused(server, feed, EIO_TEXT);
            assertHealthDownNaming(server, EIO_TEXT);
            assertAcknowledgedReadable(server, feed);
            assertVisitAnswers(server);
            assertEquals(1L, ((Number) server.metric("content.writes_stopped", Map.of("clusterId", "music"))
                                             .get("last")).longValue());
            assertOneLogLine(server);
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void fdatasyncEnospcOnce_evenWhenFsyncWorksAgain_noLaterWriteIs200() throws Exception {
        try (ServerProcess server = startUnderFiu("enospc")) {
            // One failure only: the next fsync succeeds, and RocksDB resumes writing by itself. Sluice must not.
            FsyncFeed.Result feed = feedThroughFailure(server, "enable name=posix/io/sync/*,failinfo=" + ENOSPC
                                                               + ",onetime=1", true);

            assertNoAcknowledgementAfterTheFailure(feed);
            assertRefusedNaming(feed, ENOSPC_TEXT);
            assertHealthDownNaming(server, ENOSPC_TEXT);
            assertAcknowledgedReadable(server, feed);
            assertOneLogLine(server);
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void restart_afterFsyncFailure_withFsyncWorking_losesNoAcknowledgedWrite() throws Exception {
        FsyncFeed.Result feed;
        try (ServerProcess server = startUnderFiu("before-restart")) {
            feed = feedThroughFailure(server, "enable name=posix/io/sync/*,failinfo=" + EIO, false);
            assertNoAcknowledgedWriteAfter(feed);
            server.stop(); // graceful: it must not hang on a store that cannot sync, nor write on top of it
        }
        try (ServerProcess server = ServerProcess.start(application(), data(), directory, "after-restart")) {
            List<String> wrong = new ArrayList<>();
            for (FsyncFeed.Write write : feed.writes()) {
                int status = server.get(FsyncFeed.path(write.id())).statusCode();
                if (write.status() == 200 && status != 200)
                    wrong.add(write.id() + " was acknowledged but answers " + status);
                if (write.status() == 503 && status != 404) // refused before it reached the store
                    wrong.add(write.id() + " was refused with 503 but answers " + status);
            }
            assertEquals(List.of(), wrong, feed.summary());
            assertAcknowledgedReadable(server, feed);
            assertEquals(200, server.put(FsyncFeed.path("after-restart"), FsyncFeed.body("after-restart")).statusCode(),
                         "a write after the restart");
        }
    }

    private ServerProcess startUnderFiu(String name) throws IOException {
        return ServerProcess.start(application(), data(), directory, name,
                                   List.of("fiu-run", "-x", "-f", directory.resolve("fiu-ctrl").toString()));
    }

    /**
     * Feeds until some writes are acknowledged, enables {@code failpoint} in the server, and feeds on until writes
     * sent after it have been answered (and, with {@code awaitResume}, until RocksDB has switched to a new log, as it
     * does when it resumes by itself after the failure, and then some more).
     */
    private FsyncFeed.Result feedThroughFailure(ServerProcess server, String failpoint, boolean awaitResume)
            throws Exception {
        try (FsyncFeed feed = FsyncFeed.start(server.uri(), 8)) {
            feed.awaitAnswers(300, false);
            Set<Path> logsBefore = writeAheadLogs();
            fiuCtrl(server, failpoint);
            feed.armed();
            feed.awaitAnswers(200, true);
            if (awaitResume) {
                awaitNewLog(logsBefore, server);
                feed.awaitAnswers(feed.answeredAfterArming() + 200, true);
            }
            FsyncFeed.Result result = feed.stop();
            System.out.println(failpoint + ": " + result.summary());
            return result;
        }
    }

    private void fiuCtrl(ServerProcess server, String command) throws IOException, InterruptedException {
        Process control = new ProcessBuilder("fiu-ctrl", "-f", directory.resolve("fiu-ctrl").toString(), "-c", command,
                                             Long.toString(server.pid()))
                .redirectErrorStream(true).start();
        assertTrue(control.waitFor(30, TimeUnit.SECONDS), "fiu-ctrl did not return");
        String output = new String(control.getInputStream().readAllBytes());
        assertEquals(0, control.exitValue(), "fiu-ctrl " + command + ": " + output);
    }

    /** Waits (bounded) for a write-ahead log file that was not there before the failure. */
    private void awaitNewLog(Set<Path> before, ServerProcess server) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (before.containsAll(writeAheadLogs())) {
            assertTrue(System.nanoTime() < deadline,
                       "RocksDB did not switch to a new write-ahead log within 90 s of the failed fsync, so this test "
                       + "cannot check that Sluice does not write on once RocksDB resumed:\n" + server.log());
            Thread.sleep(50);
        }
    }

    private Set<Path> writeAheadLogs() throws IOException {
        Path store = data().resolve("music");
        if ( ! Files.isDirectory(store))
            return Set.of();
        try (Stream<Path> files = Files.list(store)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".log")).collect(Collectors.toSet());
        }
    }

    private static void assertNoAcknowledgementAfterTheFailure(FsyncFeed.Result feed) {
        assertNoAcknowledgedWriteAfter(feed);
        assertTrue(feed.writes().stream().anyMatch(write -> write.afterArming() && write.status() == 503),
                   "no write was refused with 503 after the failure: " + feed.summary());
    }

    private static void assertNoAcknowledgedWriteAfter(FsyncFeed.Result feed) {
        List<FsyncFeed.Write> acknowledged = feed.writes().stream()
                                                 .filter(write -> write.afterArming() && write.status() == 200)
                                                 .toList();
        assertEquals(List.of(), acknowledged, "writes sent after fsync failed were acknowledged: " + feed.summary());
        List<FsyncFeed.Write> other = feed.writes().stream()
                                          .filter(write -> write.afterArming() && write.status() != 500
                                                           && write.status() != 503)
                                          .toList();
        assertEquals(List.of(), other, "writes after fsync failed answered neither 500 nor 503: " + feed.summary());
    }

    private static void assertRefusedNaming(FsyncFeed.Result feed, String errno) {
        for (FsyncFeed.Write write : feed.writes()) {
            if (write.status() == 500) { // the writes of the batch whose fsync failed
                Object message = JsonTree.object(write.body()).get("message");
                assertTrue(message instanceof String text && text.contains(errno) && text.contains("may or may not"),
                           "500 of " + write.id() + " does not name the storage error: " + write.body());
            }
            if (write.afterArming() && write.status() == 503) {
                Object message = JsonTree.object(write.body()).get("message");
                assertTrue(message instanceof String text && text.contains(errno) && text.contains("write-ahead log"),
                           "503 of " + write.id() + " does not name the storage error: " + write.body());
            }
        }
    }

    /** A remove is a write too: refused, and the document stays readable. */
    private static void assertRemoveRefused(ServerProcess server, FsyncFeed.Result feed, String errno) throws Exception {
        String id = feed.writes().stream().filter(write -> write.status() == 200).findFirst().orElseThrow().id();
        HttpResponse<String> remove = server.delete(FsyncFeed.path(id));
        assertEquals(503, remove.statusCode(), remove.body());
        assertTrue(remove.body().contains(errno), remove.body());
        assertEquals(200, server.get(FsyncFeed.path(id)).statusCode());
    }

    private static void assertHealthDownNaming(ServerProcess server, String errno) throws Exception {
        HttpResponse<String> health = server.get("/state/v1/health");
        assertEquals(200, health.statusCode());
        Map<?, ?> status = (Map<?, ?>) JsonTree.object(health.body()).get("status");
        assertEquals("down", status.get("code"), health.body());
        assertTrue(status.get("message") instanceof String text && text.contains(errno) && text.contains("music"),
                   health.body());
        assertEquals(404, server.get("/status.html").statusCode());
    }

    private static void assertAcknowledgedReadable(ServerProcess server, FsyncFeed.Result feed) throws Exception {
        List<String> wrong = new ArrayList<>();
        for (FsyncFeed.Write write : feed.writes()) {
            if (write.status() != 200)
                continue;
            HttpResponse<String> response = server.get(FsyncFeed.path(write.id()));
            if (response.statusCode() != 200)
                wrong.add(write.id() + ": " + response.statusCode() + " " + response.body());
            else if ( ! FsyncFeed.fields(write.id()).equals(JsonTree.object(response.body()).get("fields")))
                wrong.add(write.id() + ": " + response.body());
        }
        assertEquals(List.of(), wrong, "acknowledged documents that do not read back");
        assertTrue(feed.writes().stream().anyMatch(write -> write.status() == 200), "nothing was acknowledged");
    }

    private static void assertVisitAnswers(ServerProcess server) throws Exception {
        HttpResponse<String> visit = server.get("/document/v1/fsync/music/docid?wantedDocumentCount=20");
        assertEquals(200, visit.statusCode(), visit.body());
        assertFalse(((List<?>) JsonTree.object(visit.body()).get("documents")).isEmpty(), visit.body());
    }

    private static void assertOneLogLine(ServerProcess server) {
        long lines = server.log().lines().filter(line -> LOG_FAILED_LINE.matcher(line).find()).count();
        assertEquals(1, lines, "log lines about the failed log:\n" + server.log());
    }

    private Path data() {
        return directory.resolve("data");
    }

    private Path application() throws IOException {
        Path application = directory.resolve("app");
        Files.createDirectories(application.resolve("schemas"));
        Files.writeString(application.resolve("schemas/music.sd"),
                          "schema music {\n"
                          + "  document music {\n"
                          + "    field title type string { indexing: summary }\n"
                          + "    field year type int { indexing: summary | attribute }\n"
                          + "  }\n"
                          + "}\n");
        Files.writeString(application.resolve("services.xml"),
                          "<services version=\"1.0\">\n"
                          + "  <container id=\"default\" version=\"1.0\">\n"
                          + "    <http><server id=\"default\" port=\"8080\"/></http>\n"
                          + "    <document-api/>\n"
                          + "  </container>\n"
                          + "  <content id=\"music\" version=\"1.0\">\n"
                          + "    <min-redundancy>1</min-redundancy>\n"
                          + "    <documents><document type=\"music\" mode=\"index\"/></documents>\n"
                          + "    <engine><embedded sync=\"true\"/></engine>\n"
                          + "    <nodes><node hostalias=\"node1\" distribution-key=\"0\"/></nodes>\n"
                          + "  </content>\n"
                          + "</services>\n");
        return application;
    }

    private static boolean onPath(String command) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                     .anyMatch(dir -> ! dir.isEmpty() && Files.isExecutable(Path.of(dir, command)));
    }

}
