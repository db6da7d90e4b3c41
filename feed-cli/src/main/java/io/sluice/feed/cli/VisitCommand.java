package io.sluice.feed.cli;

import io.sluice.feed.FeedClientBuilder;
import io.sluice.feed.FeedException;
import io.sluice.feed.VisitClient;
import io.sluice.feed.VisitParameters;
import io.sluice.feed.VisitSink;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code sluice visit}: dumps a corpus as JSONL, slices in parallel over multiplexed HTTP/2, resumable through a
 * checkpoint file; or drives delete-where / update-where to completion the same way.
 */
final class VisitCommand {

    private static final Set<String> FLAGS = ConnectionOptions.union(ConnectionOptions.FLAGS, Set.of(
            "delete-where", "silent", "verbose", "help"));
    private static final Set<String> OPTIONS = ConnectionOptions.union(ConnectionOptions.OPTIONS, Set.of(
            "cluster", "selection", "field-set", "bucket-space", "from", "to", "slices", "slice-id", "output-dir",
            "checkpoint", "namespace", "document-type", "update-where", "timeout", "connections"));

    static final String HELP =
            "Usage: sluice visit --endpoint URL --cluster CLUSTER [options]\n" +
            "Visits documents (stream=true) in parallel slices and writes them as JSONL, one {\"id\",\"fields\"} per line.\n\n" +
            ConnectionOptions.HELP +
            "  --cluster CLUSTER                     content cluster to visit (required)\n" +
            "  --selection EXPRESSION                document selection\n" +
            "  --field-set FIELDSET                  fields to return, e.g. '[all]' or 'music:title'\n" +
            "  --bucket-space default|global         bucket space (server default: default)\n" +
            "  --from TIME, --to TIME                time range: epoch seconds or RFC 3339\n" +
            "  --namespace NS --document-type TYPE   visit /document/v1/NS/TYPE/docid/ (needed by --update-where)\n" +
            "  --slices N                            slices in total (default 8)\n" +
            "  --slice-id I                          run only slice I, for spreading slices over processes\n" +
            "  --connections N                       HTTP/2 connections per endpoint; slices share them (default 8)\n" +
            "  --output-dir DIR                      write slice I to DIR/slice-I.jsonl instead of standard output\n" +
            "  --checkpoint FILE                     save progress to FILE; a rerun with it continues where it stopped\n" +
            "  --timeout SECONDS                     time per request before continuing with a new one (default 60)\n" +
            "  --delete-where                        delete the selected documents instead of printing them\n" +
            "  --update-where FILE                   apply the update in FILE ({\"fields\":{…}}) to the selected documents\n" +
            "  --silent                              no progress output\n" +
            "  --verbose                             print stack traces\n" +
            "  --help\n";

    private final PrintStream out;
    private final PrintStream err;
    private final boolean terminal;

    VisitCommand(PrintStream out, PrintStream err, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    int run(String[] argv) {
        Args args;
        VisitParameters params;
        List<Integer> sliceIds = new ArrayList<>();
        Optional<Path> outputDir, checkpointFile;
        byte[] updateBody = new byte[0];
        String mode;
        FeedClientBuilder builder;
        try {
            args = Args.parse(argv, FLAGS, OPTIONS, ConnectionOptions.MULTI);
            if (args.has("help")) {
                out.print(HELP);
                return 0;
            }
            String cluster = args.value("cluster").orElseThrow(() -> new UsageException("Option '--cluster' is required"));
            int slices = args.intValue("slices", 8, 1, 1 << 16);
            if (args.has("slice-id")) sliceIds.add(args.intValue("slice-id", 0, 0, slices - 1));
            else for (int i = 0; i < slices; i++) sliceIds.add(i);
            if (args.has("namespace") != args.has("document-type"))
                throw new UsageException("Options '--namespace' and '--document-type' must be given together");
            mode = args.has("delete-where") ? "delete-where" : args.has("update-where") ? "update-where" : "visit";
            if (args.has("delete-where") && args.has("update-where"))
                throw new UsageException("Options '--delete-where' and '--update-where' exclude each other");
            if ( ! mode.equals("visit") && ! args.has("selection"))
                throw new UsageException("Option '--" + mode + "' needs '--selection' (use 'true' for every document)");
            if (mode.equals("update-where")) {
                if ( ! args.has("namespace")) throw new UsageException("Option '--update-where' needs '--namespace' and '--document-type'");
                updateBody = Files.readAllBytes(ConnectionOptions.existing(args, "update-where"));
            }
            if ( ! mode.equals("visit") && args.has("output-dir"))
                throw new UsageException("Option '--output-dir' is for visiting, not for --" + mode);
            double timeout = args.doubleValue("timeout", 1).orElse(60.0);
            params = new VisitParameters(cluster, args.value("namespace"), args.value("document-type"), args.value("selection"),
                                         args.value("field-set"), args.value("bucket-space"), micros(args, "from"),
                                         micros(args, "to"), slices, Duration.ofMillis((long) (timeout * 1000)));
            outputDir = args.value("output-dir").map(Path::of);
            if (outputDir.isPresent()) Files.createDirectories(outputDir.get());
            checkpointFile = args.value("checkpoint").map(Path::of);
            builder = ConnectionOptions.builder(args, ConnectionOptions.endpoint(args))
                                       .setConnectionsPerEndpoint(args.intValue("connections", 8, 1, 1024));
        }
        catch (UsageException | IllegalArgumentException e) {
            err.println("Error: " + e.getMessage());
            return 1;
        }
        catch (IOException e) {
            err.println("Error: " + e.getMessage());
            return 1;
        }

        String key = String.join("|", mode, params.cluster(), params.namespace().orElse(""), params.documentType().orElse(""),
                                 params.selection().orElse(""), params.fieldSet().orElse(""), params.bucketSpace().orElse(""),
                                 text(params.fromTimestamp()), text(params.toTimestamp())).replace('\n', ' ');
        Checkpoint checkpoint;
        try {
            checkpoint = checkpointFile.isPresent() ? Checkpoint.load(checkpointFile.get(), key, params.slices()) : null;
        }
        catch (UsageException | UncheckedIOException e) {
            err.println("Error: " + e.getMessage());
            return 1;
        }
        long start = System.nanoTime();
        LongAdder documents = new LongAdder();
        AtomicLongArray permille = new AtomicLongArray(params.slices());
        OutputStream shared = new BufferedOutputStream(out, 1 << 16);
        ExecutorService workers = Executors.newFixedThreadPool(sliceIds.size(), task -> new Thread(task, "sluice-visit-slice"));
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "sluice-visit-progress");
            thread.setDaemon(true);
            return thread;
        });
        boolean silent = args.has("silent");
        int exit = 0;
        try (VisitClient client = builder.buildVisitClient()) {
            timer.scheduleAtFixedRate(() -> {
                if (checkpoint != null) checkpoint.save();
            }, 1, 1, TimeUnit.SECONDS);
            if ( ! silent)
                timer.scheduleAtFixedRate(() -> progress(start, documents.sum(), permille, sliceIds, mode, false),
                                          terminal ? 1 : 10, terminal ? 1 : 10, TimeUnit.SECONDS);
            List<Future<?>> futures = new ArrayList<>();
            for (int id : sliceIds) {
                Checkpoint.Slice state = checkpoint == null ? Checkpoint.Slice.START : checkpoint.slice(id);
                if (state.state() == Checkpoint.State.DONE) {
                    permille.set(id, 1000);
                    continue;
                }
                final byte[] body = updateBody;
                futures.add(workers.submit(() -> {
                    runSlice(client, params, id, state, mode, body, outputDir, shared, checkpoint, documents, permille);
                    return null;
                }));
            }
            for (int i = 0; i < futures.size(); i++) {
                try {
                    futures.get(i).get();
                }
                catch (java.util.concurrent.ExecutionException e) {
                    Throwable cause = e.getCause();
                    synchronized (err) {
                        err.println("Error: " + cause.getMessage());
                        if (args.has("verbose")) cause.printStackTrace(err);
                    }
                    exit = 1;
                }
            }
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit = 1;
        }
        catch (FeedException e) {
            err.println("Error: " + e.getMessage());
            exit = 1;
        }
        finally {
            workers.shutdownNow();
            timer.shutdownNow();
            try {
                shared.flush();
            }
            catch (IOException e) {
                err.println("Error: failed writing output: " + e.getMessage());
                exit = 1;
            }
            if (checkpoint != null) checkpoint.save();
        }
        if ( ! silent) progress(start, documents.sum(), permille, sliceIds, mode, true);
        return exit;
    }

    private static void runSlice(VisitClient client, VisitParameters params, int id, Checkpoint.Slice state, String mode,
                                 byte[] updateBody, Optional<Path> outputDir, OutputStream shared, Checkpoint checkpoint,
                                 LongAdder documents, AtomicLongArray permille) throws IOException {
        if ( ! mode.equals("visit")) {
            VisitSink sink = new VisitSink() {
                @Override public void document(byte[] json, int offset, int length) { }
                @Override public void continuation(Optional<String> token, double percent) {
                    if (checkpoint != null) checkpoint.update(id, token, 0);
                    if (token.isEmpty()) permille.set(id, 1000);
                }
                @Override public void processed(long count) { documents.add(count); }
            };
            client.processWhere(mode.equals("delete-where") ? "DELETE" : "PUT", params, id, state.token(), updateBody, sink);
            return;
        }
        long keep = state.state() == Checkpoint.State.TOKEN ? state.outputBytes() : 0;
        try (SliceWriter writer = outputDir.isPresent()
                ? SliceWriter.toFile(id, outputDir.get().resolve(String.format(Locale.ROOT, "slice-%04d.jsonl", id)), keep,
                                     checkpoint, documents, permille)
                : SliceWriter.toShared(id, shared, checkpoint, documents, permille)) {
            client.visit(params, id, state.token(), writer);
        }
    }

    private void progress(long start, long documents, AtomicLongArray permille, List<Integer> sliceIds, String mode, boolean last) {
        double seconds = (System.nanoTime() - start) / 1e9;
        long total = 0;
        int done = 0;
        for (int id : sliceIds) {
            total += permille.get(id);
            if (permille.get(id) >= 1000) done++;
        }
        String line = String.format(Locale.ROOT, "%s: %,d documents  %,.0f docs/s  %.1f%%  %d/%d slices done",
                                    mode, documents, documents / Math.max(seconds, 1e-9), total / 10.0 / sliceIds.size(),
                                    done, sliceIds.size());
        synchronized (err) {
            if (terminal) err.print("\r" + line + (last ? "\n" : "   "));
            else err.println(line);
            err.flush();
        }
    }

    private static String text(OptionalLong value) {
        return value.isPresent() ? Long.toString(value.getAsLong()) : "";
    }

    /** Epoch seconds or RFC 3339, as microseconds. */
    private static OptionalLong micros(Args args, String name) {
        Optional<String> value = args.value(name);
        if (value.isEmpty()) return OptionalLong.empty();
        try {
            return OptionalLong.of(Long.parseLong(value.get()) * 1_000_000);
        }
        catch (NumberFormatException e) {
            try {
                Instant instant = Instant.parse(value.get());
                return OptionalLong.of(instant.getEpochSecond() * 1_000_000 + instant.getNano() / 1000);
            }
            catch (DateTimeParseException f) {
                throw new UsageException("Option '--" + name + "' must be epoch seconds or RFC 3339, but was '" + value.get() + "'");
            }
        }
    }

}
