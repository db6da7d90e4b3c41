package io.sluice.http;

import io.sluice.container.JsonTree;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code sluice serve} in a child JVM ({@link ChildServerMain}) on a free port, with its output in log files. Starting
 * returns once {@code /state/v1/health} says {@code up}; {@link #kill()} sends SIGKILL; {@link #close()} makes sure
 * the process is gone. Every wait is bounded.
 */
final class ServerProcess implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);
    private static final Pattern LISTENING = Pattern.compile("Sluice listening on (\\S+)");

    private final Process process;
    private final Path out;
    private final Path err;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                                                .connectTimeout(Duration.ofSeconds(5)).build();
    private URI uri;

    private ServerProcess(Process process, Path out, Path err) {
        this.process = process;
        this.out = out;
        this.err = err;
    }

    /**
     * Starts a server for the application package {@code application} storing content in {@code data}, with its
     * output in {@code <logs>/<name>.out} and {@code .err}, and waits until it is up.
     *
     * @throws AssertionError with the server's output if it exits or is not up within 90 s (the process is then killed)
     */
    static ServerProcess start(Path application, Path data, Path logs, String name) throws IOException {
        return start(application, data, logs, name, List.of());
    }

    /**
     * As {@link #start(Path, Path, Path, String)}, with the JVM started through {@code launcher} (e.g.
     * {@code fiu-run -x}, which execs it, so {@link #pid()} is still the JVM's).
     */
    static ServerProcess start(Path application, Path data, Path logs, String name, List<String> launcher)
            throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = logs.resolve(name + ".out");
        Path err = logs.resolve(name + ".err");
        List<String> command = new ArrayList<>(launcher);
        command.addAll(List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                               // The test logging config says WARN; the store's INFO tells about recovery.
                               "-Dio.sluice.content.embedded.LEVEL=INFO",
                               "-cp", System.getProperty("java.class.path"),
                               ChildServerMain.class.getName(), "serve", "--app", application.toString(),
                               "--port", "0", "--data", data.toString()));
        Process process = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        ServerProcess server = new ServerProcess(process, out, err);
        try {
            server.awaitUp();
            return server;
        } catch (IOException | RuntimeException | Error e) {
            server.close();
            throw e;
        }
    }

    /** The base URI of the server's cleartext port (HTTP/1.1 and h2c). */
    URI uri() {
        return uri;
    }

    /** What the server logged so far: its standard error, then its standard output. */
    String log() {
        return read(err) + read(out);
    }

    /** The server's process id. */
    long pid() {
        return process.pid();
    }

    /**
     * Sends SIGTERM (a graceful stop) and waits for the process to exit; returns its exit code.
     *
     * @throws AssertionError if it does not exit within 30 s
     */
    int stop() throws InterruptedException {
        process.destroy();
        if ( ! process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
            throw new AssertionError("The server did not stop within " + EXIT_TIMEOUT + " of SIGTERM:\n" + log());
        return process.exitValue();
    }

    /** Sends SIGKILL and waits for the process to die; returns its exit code (137 when SIGKILL ended it). */
    int kill() throws InterruptedException {
        process.destroyForcibly();
        if ( ! process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS))
            throw new AssertionError("The server did not die within " + EXIT_TIMEOUT + " of SIGKILL");
        return process.exitValue();
    }

    /** GETs {@code path} on the server. */
    HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(30)).GET().build(),
                         HttpResponse.BodyHandlers.ofString());
    }

    /** POSTs (a /document/v1 put) the JSON {@code body} to {@code path} on the server. */
    HttpResponse<String> put(String path, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(30))
                                    .header("Content-Type", "application/json")
                                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                         HttpResponse.BodyHandlers.ofString());
    }

    /** DELETEs (a /document/v1 remove) {@code path} on the server. */
    HttpResponse<String> delete(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(30)).DELETE().build(),
                         HttpResponse.BodyHandlers.ofString());
    }

    /** The values of the metric {@code name} with exactly {@code dimensions} in {@code /state/v1/metrics}, if any. */
    Map<?, ?> metric(String name, Map<String, String> dimensions) throws IOException, InterruptedException {
        HttpResponse<String> response = get("/state/v1/metrics");
        List<?> values = (List<?>) ((Map<?, ?>) JsonTree.object(response.body()).get("metrics")).get("values");
        for (Object value : values) {
            Map<?, ?> metric = (Map<?, ?>) value;
            if (name.equals(metric.get("name")) && dimensions.equals(metric.get("dimensions")))
                return (Map<?, ?>) metric.get("values");
        }
        return Map.of();
    }

    /** Kills the process if it still runs, and waits (bounded) for it to be gone. */
    @Override
    public void close() {
        process.destroyForcibly();
        try {
            process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void awaitUp() throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if ( ! process.isAlive())
                throw new AssertionError("The server exited with " + process.exitValue() + " while starting:\n" + log());
            if (uri == null) {
                Matcher listening = LISTENING.matcher(read(out));
                if (listening.find())
                    uri = URI.create(listening.group(1));
            }
            if (uri != null && isUp())
                return;
            if (System.nanoTime() - deadline > 0)
                throw new AssertionError("The server was not up within " + START_TIMEOUT + ":\n" + log());
            pause();
        }
    }

    private boolean isUp() {
        try {
            HttpResponse<String> health = get("/state/v1/health");
            return health.statusCode() == 200
                   && "up".equals(((Map<?, ?>) JsonTree.object(health.body()).get("status")).get("code"));
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting for the server", e);
        }
    }

    /** Bounded polling for readiness: nothing else tells when a child process is up. */
    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted while waiting for the server", e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
