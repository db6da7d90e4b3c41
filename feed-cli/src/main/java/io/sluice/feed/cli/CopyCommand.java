package io.sluice.feed.cli;

import io.sluice.feed.FeedClient;
import io.sluice.feed.FeedException;
import io.sluice.feed.VisitClient;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * {@code sluice copy}: visits documents from one {@code /document/v1} endpoint and puts them into another with the feed
 * client (its retries, throttling and ordering), every slice of every cluster and bucket space in parallel; resumable
 * through a checkpoint that only moves past documents the target acknowledged (or the dead-letter file took).
 */
final class CopyCommand {

    private static final Set<String> FLAGS = ConnectionOptions.union(ConnectionOptions.FLAGS, ConnectionOptions.union(VisitOptions.FLAGS, Set.of(
            "silent", "verbose", "help")));
    private static final Set<String> OPTIONS = ConnectionOptions.union(ConnectionOptions.OPTIONS, ConnectionOptions.union(VisitOptions.OPTIONS, Set.of(
            "from-time", "to-time", "checkpoint", "dead-letter", "connections")));

    static final String HELP =
            "Usage: sluice copy --from URL --to URL [options]\n" +
            "Visits documents at --from (streamed, in parallel slices of every cluster and bucket space) and puts them to --to\n" +
            "with the feed client: retried, throttled, a few slices' documents mixed so the target does not get them in the\n" +
            "source's bucket order. The TLS and header options apply to both ends.\n\n" +
            "  --from URL                            the /document/v1 endpoint to copy from\n" +
            "  --to URL                              the /document/v1 endpoint to copy to\n" +
            ConnectionOptions.HELP.replaceAll("(?m)^  --endpoint.*\n", "") +
            VisitOptions.HELP.replace("--from TIME, --to TIME" + " ".repeat(10), "--from-time TIME, --to-time TIME")
                             .replaceAll("(?m)^  --field-set.*\n", "") +
            "  --connections N                       HTTP/2 connections per endpoint (default 8)\n" +
            "  --checkpoint FILE                     save progress to FILE; a rerun with it continues where it stopped\n" +
            "  --dead-letter FILE                    append documents the target refused, as JSONL to feed again later\n" +
            "  --silent                              no progress output\n" +
            "  --verbose                             print stack traces\n" +
            "  --help\n";

    private final PrintStream out;
    private final PrintStream err;
    private final boolean terminal;

    CopyCommand(PrintStream out, PrintStream err, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    int run(String[] argv) {
        Args args;
        VisitOptions options;
        URI from, to;
        Optional<Path> checkpointFile, deadLetterFile;
        int connections;
        try {
            args = Args.parse(argv, FLAGS, OPTIONS, ConnectionOptions.MULTI);
            if (args.has("help")) {
                out.print(HELP);
                return 0;
            }
            if (args.has("field-set"))
                throw new UsageException("Option '--field-set' does not go with copy: puts of some fields would replace whole documents");
            from = url(args, "from");
            to = url(args, "to");
            VisitOptions parsed = VisitOptions.parse(args, OptionalInt.empty(), "from-time", "to-time");
            options = parsed.splitWhole(VisitCommand.STREAMS);
            checkpointFile = args.value("checkpoint").map(Path::of);
            deadLetterFile = args.value("dead-letter").map(Path::of);
            connections = args.intValue("connections", 8, 1, 1024);
        }
        catch (UsageException | IllegalArgumentException e) {
            err.println("Error: " + e.getMessage());
            return 1;
        }

        long start = System.nanoTime();
        CopyStats stats = new CopyStats();
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "sluice-copy-progress");
            thread.setDaemon(true);
            return thread;
        });
        ExecutorService workers = null;
        Checkpoint checkpoint = null;
        AtomicLongArray permille = null;
        List<VisitOptions.Unit> units = List.of();
        boolean silent = args.has("silent");
        int exit = 0;
        try (DeadLetters deadLetters = new DeadLetters(deadLetterFile);
             VisitClient source = ConnectionOptions.builder(args, from).setConnectionsPerEndpoint(connections).buildVisitClient();
             FeedClient target = ConnectionOptions.builder(args, to).setConnectionsPerEndpoint(connections).build()) {
            List<String> clusters = options.discovers() ? source.contentClusters() : options.clusters;
            units = options.units(clusters);
            permille = new AtomicLongArray(options.unitCount(clusters));
            checkpoint = checkpointFile.isPresent() ? Checkpoint.load(checkpointFile.get(), options.key("copy " + to, clusters),
                                                                      options.unitCount(clusters)) : null;
            final Checkpoint saved = checkpoint;
            final AtomicLongArray progress = permille;
            final List<VisitOptions.Unit> all = units;
            if (saved != null) timer.scheduleAtFixedRate(saved::save, 1, 1, TimeUnit.SECONDS);
            if ( ! silent)
                timer.scheduleAtFixedRate(() -> progress(start, stats, progress, all, false),
                                          terminal ? 1 : 10, terminal ? 1 : 10, TimeUnit.SECONDS);
            workers = Executors.newFixedThreadPool(units.size(), task -> new Thread(task, "sluice-copy-slice"));
            List<Future<?>> futures = new ArrayList<>();
            for (VisitOptions.Unit unit : units) {
                Checkpoint.Slice state = saved == null ? Checkpoint.Slice.START : saved.slice(unit.index());
                if (state.state() == Checkpoint.State.DONE) {
                    permille.set(unit.index(), 1000);
                    continue;
                }
                futures.add(workers.submit(() -> {
                    CopySink sink = new CopySink(unit.index(), target, saved, stats, progress, deadLetters::write, this::failure);
                    source.visit(options.parameters(unit), unit.slice(), state.token(), sink);
                    return null;
                }));
            }
            if ( ! VisitCommand.awaitAll(futures, err, args.has("verbose"))) exit = 1;
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            exit = 1;
        }
        catch (FeedException | UsageException | UncheckedIOException | IOException e) {
            err.println("Error: " + e.getMessage());
            exit = 1;
        }
        finally {
            if (workers != null) workers.shutdownNow();
            timer.shutdownNow();
            if (checkpoint != null) checkpoint.save();
        }
        if (stats.failed.sum() > 0) {
            err.println("Error: " + stats.failed.sum() + " documents were not copied" +
                        deadLetterFile.map(f -> "; they are in " + f).orElse("; give --dead-letter FILE to keep them"));
            exit = 1;
        }
        if ( ! silent && permille != null) progress(start, stats, permille, units, true);
        return exit;
    }

    private void failure(String message) {
        synchronized (err) {
            err.println("Failed: " + message);
        }
    }

    private static URI url(Args args, String name) {
        String value = args.value(name).orElseThrow(() -> new UsageException("Option '--" + name + "' is required"));
        try {
            URI uri = new URI(value);
            if ( ! "http".equals(uri.getScheme()) && ! "https".equals(uri.getScheme()) || uri.getHost() == null)
                throw new UsageException("Option '--" + name + "' must be an http:// or https:// URL with a host, but was '" + value + "'");
            return uri;
        }
        catch (URISyntaxException e) {
            throw new UsageException("Option '--" + name + "' is not a valid URL: '" + value + "'");
        }
    }

    private void progress(long start, CopyStats stats, AtomicLongArray permille, List<VisitOptions.Unit> units, boolean last) {
        double seconds = Math.max((System.nanoTime() - start) / 1e9, 1e-9);
        long total = 0;
        int done = 0;
        for (VisitOptions.Unit unit : units) {
            total += permille.get(unit.index());
            if (permille.get(unit.index()) >= 1000) done++;
        }
        long fed = stats.fed.sum();
        String line = String.format(Locale.ROOT, "copy: %,d visited  %,d fed  %,d failed  %,.0f docs/s  %.1f MB/s  %.1f%%  %d/%d slices done",
                                    stats.visited.sum(), fed, stats.failed.sum(), fed / seconds, stats.bytes.sum() / seconds / 1e6,
                                    units.isEmpty() ? 100.0 : total / 10.0 / units.size(), done, units.size());
        synchronized (err) {
            if (terminal) err.print("\r" + line + (last ? "\n" : "   "));
            else err.println(line);
            err.flush();
        }
    }

    /** Appends refused documents, one JSON line each, to a file opened on the first one. */
    private static final class DeadLetters implements AutoCloseable {

        private final Optional<Path> file;
        private OutputStream out;

        DeadLetters(Optional<Path> file) { this.file = file; }

        synchronized void write(byte[] line) {
            if (file.isEmpty()) return;
            try {
                if (out == null)
                    out = new BufferedOutputStream(Files.newOutputStream(file.get(), StandardOpenOption.CREATE, StandardOpenOption.APPEND));
                out.write(line);
                out.write('\n');
                out.flush(); // a document counts as handled once the file has it
            }
            catch (IOException e) {
                throw new UncheckedIOException("Failed writing dead-letter file " + file.get(), e);
            }
        }

        @Override public synchronized void close() throws IOException {
            if (out != null) out.close();
        }

    }

}
