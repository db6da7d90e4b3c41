package io.sluice.feed.cli;

import io.sluice.feed.FeedClientBuilder;
import io.sluice.feed.FeedException;
import io.sluice.feed.VisitClient;
import io.sluice.feed.VisitParameters;
import io.sluice.feed.VisitSink;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code sluice visit}: dumps a corpus as JSONL or a JSON array, to standard output or to files per slice, slices of
 * every cluster and bucket space in parallel over multiplexed HTTP/2, resumable through a checkpoint file; or drives
 * delete-where / update-where to completion the same way.
 */
final class VisitCommand {

    private static final Set<String> FLAGS = ConnectionOptions.union(ConnectionOptions.FLAGS, ConnectionOptions.union(VisitOptions.FLAGS, Set.of(
            "delete-where", "silent", "verbose", "help", "make-feed", "json-lines")));
    private static final Set<String> OPTIONS = ConnectionOptions.union(ConnectionOptions.OPTIONS, ConnectionOptions.union(VisitOptions.OPTIONS, Set.of(
            "output-dir", "checkpoint", "update-where", "connections", "max-documents-per-file", "max-bytes-per-file", "compression")));

    static final String HELP =
            "Usage: sluice visit [--endpoint URL] [options]\n" +
            "Visits documents (stream=true) in parallel slices and writes them as JSONL, one {\"id\",\"fields\"} per line:\n" +
            "each line is a put that sluice feed and vespa feed take. Takes vespa visit's flags, with the same meaning.\n\n" +
            ConnectionOptions.HELP +
            VisitOptions.HELP +
            "  --connections N                       HTTP/2 connections per endpoint; slices share them (default 8)\n" +
            "  --make-feed                           write one JSON array of the documents instead of JSONL (as vespa visit);\n" +
            "                                        with --json-lines too, JSONL\n" +
            "  --json-lines[=true|false]             one document per line (default); false writes a JSON array\n" +
            "  --output-dir DIR                      write files in DIR, slice I to slice-000I.jsonl, instead of standard output;\n" +
            "                                        each file is written as NAME.partial and renamed when complete\n" +
            "  --max-documents-per-file N            with --output-dir: a new file once a file holds N documents\n" +
            "  --max-bytes-per-file SIZE             with --output-dir: a new file once a file holds SIZE bytes of JSON (e.g. 1G)\n" +
            "  --compression none|gzip|zstd          with --output-dir: gzip (.jsonl.gz) or zstd (.jsonl.zst) files\n" +
            "  --checkpoint FILE                     save progress to FILE; a rerun with it continues where it stopped\n" +
            "  --delete-where                        delete the selected documents instead of printing them\n" +
            "  --update-where FILE                   apply the update in FILE ({\"fields\":{…}}) to the selected documents\n" +
            "  --silent                              no progress output\n" +
            "  --verbose                             print stack traces\n" +
            "  --help\n";

    /** Server slices a one-slice dump to standard output visits: one stream is one server thread rendering documents. */
    static final int STREAMS = 4;

    private final PrintStream out;
    private final PrintStream err;
    private final boolean terminal;

    VisitCommand(PrintStream out, PrintStream err, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /** How documents are written: to standard output, or files in a directory. */
    private record Output(Optional<Path> directory, SliceFiles.Format format) { }

    int run(String[] argv) {
        Args args;
        VisitOptions options;
        Output output;
        Optional<Path> checkpointFile;
        byte[] updateBody = new byte[0];
        String mode;
        FeedClientBuilder builder;
        try {
            args = Args.parse(argv, FLAGS, OPTIONS, ConnectionOptions.MULTI);
            if (args.has("help")) {
                out.print(HELP);
                return 0;
            }
            mode = args.has("delete-where") ? "delete-where" : args.has("update-where") ? "update-where" : "visit";
            if (args.has("delete-where") && args.has("update-where"))
                throw new UsageException("Options '--delete-where' and '--update-where' exclude each other");
            if ( ! mode.equals("visit") && ! args.has("selection"))
                throw new UsageException("Option '--" + mode + "' needs '--selection' (use 'true' for every document)");
            if (mode.equals("update-where")) {
                if ( ! args.has("namespace")) throw new UsageException("Option '--update-where' needs '--namespace' and '--document-type'");
                updateBody = Files.readAllBytes(ConnectionOptions.existing(args, "update-where"));
            }
            output = output(args, mode);
            OptionalInt chunk = output.format().maxDocuments() < Long.MAX_VALUE
                                ? OptionalInt.of((int) Math.min(Integer.MAX_VALUE, output.format().maxDocuments()))
                                : output.format().maxBytes() < Long.MAX_VALUE ? OptionalInt.of(10_000) : OptionalInt.empty();
            VisitOptions parsed = VisitOptions.parse(args, chunk);
            // Files are one per slice; to standard output, a dump of everything as one slice is visited as 4 server slices.
            options = output.directory().isPresent() ? parsed : parsed.splitWhole(STREAMS);
            if (output.directory().isPresent()) Files.createDirectories(output.directory().get());
            checkpointFile = args.value("checkpoint").map(Path::of);
            builder = ConnectionOptions.builder(args, ConnectionOptions.endpoint(args))
                                       .setConnectionsPerEndpoint(args.intValue("connections", 8, 1, 1024));
        }
        catch (UsageException | IllegalArgumentException | IOException e) {
            err.println("Error: " + e.getMessage());
            return 1;
        }

        long start = System.nanoTime();
        LongAdder documents = new LongAdder();
        SharedOutput shared = new SharedOutput(new BufferedOutputStream(SharedOutput.failing(out), 1 << 16), output.format().array());
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "sluice-visit-progress");
            thread.setDaemon(true);
            return thread;
        });
        ExecutorService workers = null;
        boolean silent = args.has("silent");
        AtomicLongArray permille = null;
        List<VisitOptions.Unit> units = List.of();
        int exit = 0;
        Checkpoint checkpoint = null;
        try (VisitClient client = builder.buildVisitClient()) {
            List<String> clusters = options.discovers() ? client.contentClusters() : options.clusters;
            units = options.units(clusters);
            permille = new AtomicLongArray(options.unitCount(clusters));
            checkpoint = checkpointFile.isPresent() ? Checkpoint.load(checkpointFile.get(), options.key(mode, clusters),
                                                                      options.unitCount(clusters)) : null;
            final Checkpoint saved = checkpoint;
            final AtomicLongArray progress = permille;
            final List<VisitOptions.Unit> all = units;
            if (output.directory().isEmpty() && mode.equals("visit")) shared.begin();
            if (saved != null) timer.scheduleAtFixedRate(saved::save, 1, 1, TimeUnit.SECONDS);
            if ( ! silent)
                timer.scheduleAtFixedRate(() -> progress(start, documents.sum(), progress, all, mode, false),
                                          terminal ? 1 : 10, terminal ? 1 : 10, TimeUnit.SECONDS);
            workers = Executors.newFixedThreadPool(units.size(), task -> new Thread(task, "sluice-visit-slice"));
            List<Future<?>> futures = new ArrayList<>();
            for (VisitOptions.Unit unit : units) {
                Checkpoint.Slice state = saved == null ? Checkpoint.Slice.START : saved.slice(unit.index());
                if (state.state() == Checkpoint.State.DONE) permille.set(unit.index(), 1000);
                if (state.state() == Checkpoint.State.DONE && output.directory().isEmpty()) continue;
                final byte[] body = updateBody;
                futures.add(workers.submit(() -> {
                    runUnit(client, options, unit, clusters, state, mode, body, output, shared, saved, documents, progress);
                    return null;
                }));
            }
            if ( ! VisitCommand.awaitAll(futures, err, args.has("verbose"))) exit = 1;
            if (output.directory().isEmpty() && mode.equals("visit") && ! shared.hasFailed()) shared.end();
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit = 1;
        }
        catch (FeedException | UsageException | UncheckedIOException e) {
            err.println("Error: " + e.getMessage());
            exit = 1;
        }
        catch (IOException e) {
            err.println("Error: failed writing output: " + e.getMessage());
            exit = 1;
        }
        finally {
            if (workers != null) workers.shutdownNow();
            timer.shutdownNow();
            try {
                if ( ! shared.hasFailed()) shared.flush(); // else the slices have said why
            }
            catch (IOException e) {
                err.println("Error: failed writing output: " + e.getMessage());
                exit = 1;
            }
            if (shared.hasFailed()) exit = 1;
            if (checkpoint != null) checkpoint.save();
        }
        if ( ! silent && permille != null) progress(start, documents.sum(), permille, units, mode, true);
        return exit;
    }

    private static Output output(Args args, String mode) {
        boolean array = args.has("make-feed") && ! args.has("json-lines") || args.given("json-lines") && ! args.has("json-lines");
        String compressionName = args.value("compression").orElse("none");
        SliceFiles.Compression compression;
        switch (compressionName) {
            case "none": compression = SliceFiles.Compression.NONE; break;
            case "gzip": compression = SliceFiles.Compression.GZIP; break;
            case "zstd": compression = SliceFiles.Compression.ZSTD; break;
            default: throw new UsageException("Option '--compression' takes none, gzip or zstd, but got '" + compressionName + "'");
        }
        Optional<Path> directory = args.value("output-dir").map(Path::of);
        for (String option : List.of("max-documents-per-file", "max-bytes-per-file", "compression"))
            if (args.has(option) && directory.isEmpty())
                throw new UsageException("Option '--" + option + "' needs '--output-dir' (to compress standard output, pipe it through gzip)");
        if ( ! mode.equals("visit"))
            for (String option : List.of("output-dir", "make-feed", "json-lines"))
                if (args.given(option)) throw new UsageException("Option '--" + option + "' is for visiting, not for --" + mode);
        long maxDocuments = args.has("max-documents-per-file") ? args.intValue("max-documents-per-file", 1, 1, Integer.MAX_VALUE) : Long.MAX_VALUE;
        long maxBytes = args.has("max-bytes-per-file") ? VisitOptions.bytes(args, "max-bytes-per-file") : Long.MAX_VALUE;
        return new Output(directory, new SliceFiles.Format(array, compression, maxDocuments, maxBytes));
    }

    private static void runUnit(VisitClient client, VisitOptions options, VisitOptions.Unit unit, List<String> clusters,
                                Checkpoint.Slice state, String mode, byte[] updateBody, Output output, SharedOutput shared,
                                Checkpoint checkpoint, LongAdder documents, AtomicLongArray permille) throws IOException {
        VisitParameters params = options.parameters(unit);
        int id = unit.index();
        if ( ! mode.equals("visit")) {
            VisitSink sink = new VisitSink() {
                @Override public void document(byte[] json, int offset, int length) { }
                @Override public void continuation(Optional<String> token, double percent) {
                    if (checkpoint != null) checkpoint.update(id, token, 0);
                    if (token.isEmpty()) permille.set(id, 1000);
                }
                @Override public void processed(long count) { documents.add(count); }
            };
            client.processWhere(mode.equals("delete-where") ? "DELETE" : "PUT", params, unit.slice(), state.token(), updateBody, sink);
            return;
        }
        if (output.directory().isPresent()) {
            try (SliceFiles files = SliceFiles.open(output.directory().get(), options.filePrefix(unit, clusters), output.format(),
                                                    unit.slice(), id, state, checkpoint, documents, permille)) {
                if (state.state() != Checkpoint.State.DONE) client.visit(params, unit.slice(), state.token(), files);
            }
            return;
        }
        try (SliceWriter writer = SliceWriter.toShared(id, shared, checkpoint, documents, permille)) {
            client.visit(params, unit.slice(), state.token(), writer);
        }
    }

    private void progress(long start, long documents, AtomicLongArray permille, List<VisitOptions.Unit> units, String mode, boolean last) {
        double seconds = (System.nanoTime() - start) / 1e9;
        long total = 0;
        int done = 0;
        for (VisitOptions.Unit unit : units) {
            total += permille.get(unit.index());
            if (permille.get(unit.index()) >= 1000) done++;
        }
        String line = String.format(Locale.ROOT, "%s: %,d documents  %,.0f docs/s  %.1f%%  %d/%d slices done",
                                    mode, documents, documents / Math.max(seconds, 1e-9),
                                    units.isEmpty() ? 100.0 : total / 10.0 / units.size(), done, units.size());
        synchronized (err) {
            if (terminal) err.print("\r" + line + (last ? "\n" : "   "));
            else err.println(line);
            err.flush();
        }
    }

    /**
     * Waits for every unit's future; each one that failed is reported on {@code err} (with its stack trace when
     * {@code verbose}), and the others are still waited for. Whether all succeeded.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    static boolean awaitAll(List<Future<?>> futures, PrintStream err, boolean verbose) throws InterruptedException {
        boolean succeeded = true;
        Set<String> reported = new HashSet<>(); // slices failing alike (the output closed) say so once
        for (Future<?> future : futures) {
            try {
                future.get();
            }
            catch (ExecutionException e) {
                Throwable cause = e.getCause();
                String message = String.valueOf(cause.getMessage());
                if (reported.add(message) || verbose) {
                    synchronized (err) {
                        err.println("Error: " + message);
                        if (verbose) cause.printStackTrace(err);
                    }
                }
                succeeded = false;
            }
        }
        return succeeded;
    }

}
