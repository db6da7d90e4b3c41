package io.sluice.bench;

import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.embedded.Durability;
import io.sluice.content.embedded.EmbeddedContentBackend;
import io.sluice.content.embedded.EmbeddedOptions;
import io.sluice.content.embedded.EmbeddedStats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Measures what JMH cannot: how long the embedded store takes to recover after a crash, and how much disk it uses.
 * A child process loads N documents of about 1 KiB and is then killed with SIGKILL (its memtables unflushed); the
 * store is reopened, timing the recovery, then closed cleanly and its directory measured.
 *
 * <pre>java -cp jmh-benchmarks/target/benchmarks.jar io.sluice.bench.EmbeddedRecoveryMeasurement DIR [N] [LOG|SYNC]</pre>
 *
 * DIR must not exist or be empty; N defaults to 1,000,000. Exits non-zero if anything fails.
 */
public final class EmbeddedRecoveryMeasurement {

    private static final int WINDOW = 256;

    private EmbeddedRecoveryMeasurement() { }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("load")) {
            load(Path.of(args[1]), Integer.parseInt(args[2]), Durability.valueOf(args[3]), System.out);
            return;
        }
        if (args.length < 1) {
            System.err.println("Usage: EmbeddedRecoveryMeasurement DIR [documents] [LOG|SYNC]");
            System.exit(2);
        }
        Path directory = Path.of(args[0]);
        int documents = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        Durability durability = args.length > 2 ? Durability.valueOf(args[2]) : Durability.LOG;
        loadAndKill(directory, documents, durability);
        recover(directory, System.out);
    }

    private static EmbeddedOptions options(Path directory, Durability durability) {
        return EmbeddedOptions.builder(directory, BenchDocuments.TYPES).durability(durability).minFreeDiskBytes(0)
                              .build();
    }

    private static void loadAndKill(Path directory, int documents, Durability durability)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                                           EmbeddedRecoveryMeasurement.class.getName(), "load",
                                           directory.toString(), Integer.toString(documents), durability.name())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                                                                             StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                System.out.println("child: " + line);
                if (line.startsWith("LOADED")) {
                    child.toHandle().destroyForcibly();
                }
            }
        }
        child.waitFor(60, TimeUnit.SECONDS);
        if (child.exitValue() != 137) {
            throw new IllegalStateException("The loading child exited with " + child.exitValue()
                                            + " instead of dying from SIGKILL");
        }
    }

    /** Loads the documents, prints LOADED with the rate, and waits to be killed. */
    private static void load(Path directory, int documents, Durability durability, PrintStream out)
            throws InterruptedException {
        EmbeddedContentBackend backend = EmbeddedContentBackend.open(options(directory, durability));
        long start = System.nanoTime();
        CompletableFuture<?>[] window = new CompletableFuture<?>[WINDOW];
        for (int n = 0; n < documents; n += WINDOW) {
            OperationOptions options = OperationOptions.until(Instant.now().plusSeconds(600));
            int count = Math.min(WINDOW, documents - n);
            for (int i = 0; i < count; i++) {
                window[i] = backend.put(BenchDocuments.document(n + i), options).thenAccept(outcome -> check(outcome));
            }
            for (int i = 0; i < count; i++) {
                window[i].join();
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf("LOADED %d documents in %.1f s (%.0f puts/s); %s%n", documents, seconds, documents / seconds,
                   backend.stats());
        out.flush();
        Thread.sleep(TimeUnit.MINUTES.toMillis(10));
    }

    private static void check(Outcome outcome) {
        if (!outcome.isSuccess()) {
            throw new IllegalStateException("Put failed: " + outcome);
        }
    }

    private static void recover(Path directory, PrintStream out) throws IOException {
        long walBytes = sizeOf(directory, ".log");
        EmbeddedContentBackend backend = EmbeddedContentBackend.open(options(directory, Durability.LOG));
        EmbeddedStats stats = backend.stats();
        out.printf("Recovered in %d ms, replaying %d bytes of write-ahead log; %s%n",
                   stats.recoveryTime().toMillis(), walBytes, stats);
        backend.close();
        out.printf("After a clean close: %d bytes on disk in %s (%d bytes of SST files)%n",
                   sizeOf(directory, ""), directory, sizeOf(directory, ".sst"));
    }

    private static long sizeOf(Path directory, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.getFileName().toString().endsWith(suffix))
                        .mapToLong(file -> file.toFile().length())
                        .sum();
        }
    }

}
