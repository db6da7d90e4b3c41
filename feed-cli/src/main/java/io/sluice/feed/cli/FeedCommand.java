package io.sluice.feed.cli;

import com.github.luben.zstd.ZstdInputStream;
import io.sluice.feed.Compression;
import io.sluice.feed.FeedClient;
import io.sluice.feed.FeedClientBuilder;
import io.sluice.feed.FeedException;
import io.sluice.feed.FeedOperation;
import io.sluice.feed.FeedReader;
import io.sluice.feed.GracePeriodCircuitBreaker;
import io.sluice.feed.OperationParameters;
import io.sluice.feed.OperationParseException;
import io.sluice.feed.OperationType;
import io.sluice.feed.DocumentId;
import io.sluice.feed.Result;
import io.sluice.feed.ResultException;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.zip.GZIPInputStream;

/** {@code sluice feed}: the official {@code vespa-feed-client} command line, on this library. */
final class FeedCommand {

    static final String VERSION = "8.700.24-sluice";

    private static final Set<String> FLAGS = ConnectionOptions.union(ConnectionOptions.FLAGS, Set.of(
            "stdin", "dryrun", "speed-test", "benchmark", "silent", "show-errors", "show-all", "verbose",
            "exit-on-feed-errors", "help", "version"));
    private static final Set<String> OPTIONS = ConnectionOptions.union(ConnectionOptions.OPTIONS, Set.of(
            "file", "connections", "max-streams-per-connection", "route", "timeout", "trace", "max-failure-seconds",
            "test-payload-size", "speed-test-duration", "compression", "initial-inflight-factor", "max-pending",
            "failures", "checkpoint", "max-rate"));

    static final String HELP =
            "Usage: sluice feed --endpoint URL (--file FILE | --stdin | --speed-test) [options]\n" +
            "Feeds a JSON array or JSONL of document operations to a /document/v1 endpoint over HTTP/2.\n\n" +
            ConnectionOptions.HELP +
            "  --file FILE                           feed file (JSON array or JSONL), or one gzip- or zstd-compressed\n" +
            "                                        (as ./sluice visit --compression writes them)\n" +
            "  --stdin                               read the feed from standard input\n" +
            "  --connections N                       HTTP/2 connections per endpoint (default 8)\n" +
            "  --max-streams-per-connection N        concurrent streams per connection (default 128)\n" +
            "  --route ROUTE                         route for every operation\n" +
            "  --timeout SECONDS                     time budget per operation, retries included (default 900)\n" +
            "  --trace LEVEL                         trace level 1-9 for every operation\n" +
            "  --max-failure-seconds N               give up after N seconds of nothing but failures\n" +
            "  --dryrun                              no network: every operation succeeds at once\n" +
            "  --speed-test                          send dryRun=true: the server acknowledges without storing\n" +
            "  --test-payload-size BYTES             with --speed-test and no input: generated document size (default 1024)\n" +
            "  --speed-test-duration SECONDS         with --speed-test and no input: how long to generate (default 60)\n" +
            "  --compression auto|none|gzip          request compression (default auto: gzip above 512 bytes, but not\n" +
            "                                        to a loopback endpoint)\n" +
            "  --initial-inflight-factor N           start the throttler at N times its minimum (default 1)\n" +
            "  --max-pending N                       operations held in memory at most (default 2 x max in flight)\n" +
            "  --benchmark                           print the final stats to standard output\n" +
            "  --silent                              no progress output\n" +
            "  --show-errors                         print every failed operation\n" +
            "  --show-all                            print every operation's result\n" +
            "  --verbose                             print stack traces\n" +
            "  --exit-on-feed-errors                 exit with 1 if any operation failed\n" +
            "  --failures FILE                       write each operation that finally failed to FILE, as read, one JSON line\n" +
            "                                        each with a \"failure\":{\"status\",\"message\"} field that feeding ignores:\n" +
            "                                        'sluice feed --file FILE' sends exactly those again\n" +
            "  --checkpoint FILE                     with --file (JSONL): save to FILE, at most once a second, the input\n" +
            "                                        position before which every operation has its outcome; when FILE\n" +
            "                                        exists, continue from there. Operations after it may be sent twice:\n" +
            "                                        fine for puts and removes, but an update that is not idempotent\n" +
            "                                        (increment, add) may be applied twice\n" +
            "  --max-rate OPS                        send at most OPS operations per second\n" +
            "  --help, --version\n\n" +
            "Failed operations are counted, and the first " + FailureSummary.SHOWN + " listed on standard error at the end.\n" +
            "Exit codes: 0 when the whole input was read and sent (operations may have failed; see above),\n" +
            "            1 on bad options, a failed handshake, malformed input (the error names line and column), an\n" +
            "              unreadable input, or, with --exit-on-feed-errors, any failed operation.\n";

    private final PrintStream out;
    private final PrintStream err;
    private final boolean terminal;
    private final LongAdder ok = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final FailureSummary failures = new FailureSummary();
    private boolean showErrors, showAll, verbose;
    private DeadLetters deadLetters;         // with --failures
    private FeedCheckpoint checkpoint;       // with --checkpoint

    FeedCommand(PrintStream out, PrintStream err, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    int run(String[] argv, InputStream stdin) {
        Args args;
        try {
            args = Args.parse(argv, FLAGS, OPTIONS, ConnectionOptions.MULTI);
        }
        catch (UsageException e) {
            err.println("Error: " + e.getMessage());
            return 1;
        }
        if (args.has("help")) {
            out.print(HELP);
            return 0;
        }
        if (args.has("version")) {
            out.println(VERSION);
            return 0;
        }
        FeedClient client;
        InputStream input;
        OptionalLong inputSize;
        OperationParameters params;
        RateLimiter limiter = null;
        int speedTestSeconds = 60, payloadSize = 1024;
        try {
            showErrors = args.has("show-errors") || args.has("show-all");
            showAll = args.has("show-all");
            verbose = args.has("verbose");
            boolean generate = args.has("speed-test") && ! args.has("file") && ! args.has("stdin");
            if ( ! generate && args.has("file") == args.has("stdin"))
                throw new UsageException("Exactly one of '--file' and '--stdin' must be given");
            payloadSize = args.intValue("test-payload-size", 1024, 1, 64 << 20);
            speedTestSeconds = args.intValue("speed-test-duration", 60, 1, 86400);
            params = parameters(args);
            FeedClientBuilder builder = builder(args);
            Optional<Double> maxRate = args.doubleValue("max-rate", 0.001);
            if (maxRate.isPresent()) limiter = RateLimiter.ofSystemClock(maxRate.get());
            if (args.has("checkpoint")) {
                if ( ! args.has("file")) throw new UsageException("Option '--checkpoint' needs '--file': standard input cannot be resumed");
                Path file = ConnectionOptions.existing(args, "file");
                Optional<String> compression = compression(file);
                if (compression.isPresent())
                    throw new UsageException("Option '--checkpoint' needs uncompressed JSONL input, but '" + file + "' is " +
                                             compression.get() + "-compressed; decompress it first");
                if (startsWithArray(file)) throw new UsageException("Option '--checkpoint' needs JSONL input, but '" + file + "' is a JSON array");
                checkpoint = FeedCheckpoint.load(Path.of(args.value("checkpoint").get()), file);
            }
            if (generate) {
                input = null;
                inputSize = OptionalLong.empty();
            }
            else if (args.has("file")) {
                Path file = ConnectionOptions.existing(args, "file");
                Optional<String> compression = compression(file);
                input = Files.newInputStream(file);
                if (compression.isPresent()) { // as ./sluice visit --compression writes them; progress shows no percentage
                    input = compression.get().equals("gzip") ? new GZIPInputStream(input, 1 << 16) : new ZstdInputStream(input);
                    inputSize = OptionalLong.empty();
                }
                else inputSize = OptionalLong.of(Files.size(file));
                if (checkpoint != null) input.skipNBytes(checkpoint.start().offset());
            }
            else {
                input = stdin;
                inputSize = OptionalLong.empty();
            }
            if (args.has("failures")) {
                if (generate) throw new UsageException("Option '--failures' needs an input: '--file' or '--stdin'");
                if (args.has("file") && Path.of(args.value("failures").get()).toAbsolutePath().normalize()
                                            .equals(Path.of(args.value("file").get()).toAbsolutePath().normalize()))
                    throw new UsageException("Option '--failures' must name another file than '--file'");
                deadLetters = DeadLetters.open(Path.of(args.value("failures").get()), checkpoint != null && checkpoint.resumed());
            }
            client = builder.build();
        }
        catch (UsageException | IllegalArgumentException e) {
            closeDeadLetters();
            err.println("Error: " + e.getMessage());
            return 1;
        }
        catch (IOException | FeedException e) {
            closeDeadLetters();
            err.println("Error: " + e.getMessage());
            if (verbose) e.printStackTrace(err);
            return 1;
        }

        long start = System.nanoTime();
        FeedReader reader = input == null ? null : checkpoint == null ? FeedReader.of(input) : FeedReader.resumed(input, checkpoint.start());
        if (reader != null && deadLetters != null) reader.keepingSource();
        if (checkpoint != null && checkpoint.resumed())
            err.println("Continuing from checkpoint '" + args.value("checkpoint").get() + "': offset " + checkpoint.start().offset() +
                        " (line " + checkpoint.start().line() + ")");
        ScheduledExecutorService saver = checkpoint == null ? null : startSaving(checkpoint);
        Progress progress = new Progress(err, terminal, args.has("silent"), start, client, ok, errors,
                                         reader == null ? () -> -1 : reader::bytesRead, inputSize);
        int exit = 0;
        try {
            if (reader == null) generate(client, params, payloadSize, Duration.ofSeconds(speedTestSeconds));
            else for (Optional<FeedOperation> op; (op = reader.next()).isPresent(); ) {
                if (limiter != null) limiter.acquire();
                send(client, op.get(), params, checkpoint == null ? -1 : checkpoint.track(op.get().end()));
            }
        }
        catch (InterruptedException e) {
            err.println("Error: interrupted");
            Thread.currentThread().interrupt();
            exit = 1;
        }
        catch (OperationParseException e) {
            err.println("Error: " + e.getMessage());
            exit = 1;
        }
        catch (UncheckedIOException e) {
            err.println("Error: failed reading input: " + e.getCause().getMessage());
            exit = 1;
        }
        finally {
            client.close(true);
            progress.close();
            if (saver != null) saver.shutdownNow();
            closeDeadLetters();
            if (reader != null) {
                try {
                    reader.close();
                }
                catch (IOException e) {
                    // done with it anyway
                }
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        String stats = StatsJson.format(client.stats(), seconds, ok.sum(), errors.sum());
        PrintStream statsOut = args.has("benchmark") ? out : err;
        statsOut.print(stats);
        statsOut.flush();
        if (checkpoint != null) {
            try {
                checkpoint.save();
            }
            catch (UncheckedIOException e) {
                err.println("\nError: " + e.getMessage() + ": " + e.getCause().getMessage());
                exit = 1;
            }
        }
        if (failures.count() > 0) {
            err.println();
            failures.print(err, deadLetters == null ? "" : deadLetters.file().toString());
        }
        if (exit == 0 && args.has("exit-on-feed-errors") && errors.sum() > 0) exit = 1;
        return exit;
    }

    /**
     * "gzip" or "zstd" if {@code file} starts with the magic number of a gzip member or a zstd frame, else empty. A feed
     * file starts with whitespace, '[' or '{', which neither magic number does.
     */
    static Optional<String> compression(Path file) throws IOException {
        byte[] head = new byte[4];
        int length;
        try (InputStream in = Files.newInputStream(file)) {
            length = in.readNBytes(head, 0, head.length);
        }
        if (length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) return Optional.of("gzip");
        if (length == 4 && (head[0] & 0xff) == 0x28 && (head[1] & 0xff) == 0xb5 && (head[2] & 0xff) == 0x2f && (head[3] & 0xff) == 0xfd)
            return Optional.of("zstd");
        return Optional.empty();
    }

    /** Whether the first character other than white space is '[', peeked without consuming the feed's stream. */
    private static boolean startsWithArray(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            for (int b; (b = in.read()) >= 0; )
                if (b != ' ' && b != '\n' && b != '\r' && b != '\t') return b == '[';
            return false;
        }
    }

    /** Saves the checkpoint once a second, on a daemon thread of its own. */
    private ScheduledExecutorService startSaving(FeedCheckpoint checkpoint) {
        ScheduledExecutorService saver = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "sluice-feed-checkpoint");
            thread.setDaemon(true);
            return thread;
        });
        saver.scheduleAtFixedRate(() -> {
            try {
                checkpoint.save();
            }
            catch (UncheckedIOException e) {
                print("Error: " + e.getMessage() + ": " + e.getCause().getMessage(), null);
            }
        }, 1, 1, TimeUnit.SECONDS);
        return saver;
    }

    private void closeDeadLetters() {
        if (deadLetters == null) return;
        try {
            deadLetters.close();
        }
        catch (UncheckedIOException e) {
            err.println("Error: " + e.getMessage() + ": " + e.getCause().getMessage());
        }
    }

    private static OperationParameters parameters(Args args) {
        OperationParameters params = OperationParameters.empty();
        if (args.has("route")) params = params.route(args.value("route").get());
        int trace = args.intValue("trace", 0, 0, 9);
        if (trace > 0) params = params.tracelevel(trace);
        Optional<Double> timeout = args.doubleValue("timeout", 0.001);
        if (timeout.isPresent()) params = params.timeout(Duration.ofMillis((long) (timeout.get() * 1000)));
        return params;
    }

    private static FeedClientBuilder builder(Args args) {
        FeedClientBuilder builder = ConnectionOptions.builder(args, args.has("dryrun") && ! args.has("endpoint")
                                                                    ? java.net.URI.create("http://localhost:8080/")
                                                                    : ConnectionOptions.endpoint(args));
        builder.setConnectionsPerEndpoint(args.intValue("connections", 8, 1, 1024));
        builder.setMaxStreamPerConnection(args.intValue("max-streams-per-connection", 128, 1, 1 << 16));
        builder.setInitialInflightFactor(args.intValue("initial-inflight-factor", 1, 1, 1 << 16));
        if (args.has("max-pending")) builder.setMaxPendingOperations(args.intValue("max-pending", 0, 1, 1 << 24));
        builder.setDryrun(args.has("dryrun"));
        builder.setSpeedTest(args.has("speed-test"));
        String compression = args.value("compression").orElse("auto");
        switch (compression) {
            case "auto": builder.setCompression(Compression.AUTO); break;
            case "none": builder.setCompression(Compression.NONE); break;
            case "gzip": builder.setCompression(Compression.GZIP); break;
            default: throw new UsageException("Option '--compression' must be auto, none or gzip, but was '" + compression + "'");
        }
        if (args.has("max-failure-seconds")) {
            int doom = args.intValue("max-failure-seconds", 0, 1, Integer.MAX_VALUE);
            builder.setCircuitBreaker(new GracePeriodCircuitBreaker(Duration.ofSeconds(Math.min(10, doom)), Duration.ofSeconds(doom)));
        }
        return builder;
    }

    private void send(FeedClient client, FeedOperation operation, OperationParameters params, long sequence) {
        client.send(operation, params).whenComplete((result, failure) -> {
            completed(operation, result, failure);
            if (sequence >= 0) checkpoint.done(sequence);
        });
    }

    private void generate(FeedClient client, OperationParameters params, int payloadSize, Duration duration) {
        long end = System.nanoTime() + duration.toNanos();
        String chars = "abcdefghijklmnopqrstuvwxyz0123456789";
        String payload = "x".repeat(Math.max(0, payloadSize - 24));
        byte[] body = ("{\"fields\":{\"text\":\"" + payload + "\"}}").getBytes(StandardCharsets.UTF_8);
        StringBuilder id = new StringBuilder();
        while (System.nanoTime() < end) {
            id.setLength(0);
            id.append("id:test:test::");
            for (int i = 0; i < 8; i++) id.append(chars.charAt(ThreadLocalRandom.current().nextInt(chars.length())));
            send(client, new FeedOperation(OperationType.PUT, DocumentId.of(id.toString()), Optional.empty(), false, body), params, -1);
        }
    }

    private void completed(FeedOperation operation, Result result, Throwable failure) {
        DocumentId id = operation.documentId();
        if (failure == null) {
            ok.increment();
            if (showAll) {
                StringBuilder line = new StringBuilder().append(id).append(": ").append(result.typeName());
                result.traceMessage().ifPresent(trace -> line.append('\n').append(trace));
                result.resultMessage().ifPresent(message -> line.append('\n').append(message));
                print(line.toString(), null);
            }
            return;
        }
        errors.increment();
        FeedException feedFailure = failure instanceof FeedException ? (FeedException) failure : new FeedException(id, failure);
        OptionalInt status = feedFailure.httpStatus();
        String reason = feedFailure.reason();
        failures.add(id, status, reason);
        if (deadLetters != null) {
            try {
                deadLetters.write(operation, status, reason);
            }
            catch (UncheckedIOException e) {
                print("Error: " + e.getMessage() + ": " + e.getCause().getMessage(), null);
            }
        }
        if (showErrors) {
            StringBuilder line = new StringBuilder(String.valueOf(failure.getMessage()));
            if (failure instanceof ResultException) ((ResultException) failure).trace().ifPresent(t -> line.append('\n').append(t));
            print(line.toString(), verbose ? failure : null);
        }
    }

    private void print(String line, Throwable trace) {
        synchronized (err) {
            err.println(line);
            if (trace != null) trace.printStackTrace(err);
        }
    }

}
