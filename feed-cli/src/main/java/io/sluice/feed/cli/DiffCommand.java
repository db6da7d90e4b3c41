package io.sluice.feed.cli;

import io.sluice.feed.FeedClient;
import io.sluice.feed.FeedException;
import io.sluice.feed.VisitClient;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * {@code sluice diff A B}: visits every document of two {@code /document/v1} endpoints at once, every slice of every
 * cluster and bucket space in parallel, and compares them by id and {@link ContentDigest content}. Neither corpus is
 * held in memory: each endpoint's ids and digests are spilled to disk, partitioned by a hash of the id, and compared a
 * partition at a time (see {@link DiffSpill}), so the endpoints may visit in any order and slice differently (Vespa and
 * Sluice do). Exit code 0 when equal, 1 when different, 2 on errors, as {@code diff}.
 */
final class DiffCommand {

    static final int EQUAL = 0, DIFFERENT = 1, ERROR = 2;

    private static final Set<String> FLAGS = ConnectionOptions.union(ConnectionOptions.FLAGS, ConnectionOptions.union(VisitOptions.FLAGS, Set.of(
            "repair", "delete-extra", "silent", "verbose", "help")));
    private static final Set<String> OPTIONS = ConnectionOptions.union(ConnectionOptions.OPTIONS, ConnectionOptions.union(VisitOptions.OPTIONS, Set.of(
            "out", "temp-dir", "partitions", "connections", "from-time", "to-time")));

    static final String HELP =
            "Usage: sluice diff A B [options]\n" +
            "Compares every document of two /document/v1 endpoints A and B (URLs; Sluice or Vespa): visits both at once, in\n" +
            "parallel slices of every cluster and bucket space, and compares the documents by id and content (fields as JSON:\n" +
            "object keys in any order, numbers by value). Prints progress on stderr and a JSON summary on stdout.\n" +
            "Exit code: 0 when A and B hold the same documents, 1 when they differ, 2 on errors.\n" +
            "With --content-cluster '*' (the default) each endpoint's own clusters are visited, so their names may differ.\n" +
            "The TLS and header options apply to both endpoints.\n\n" +
            "  --out DIR                             write the ids only in A, only in B and differing to DIR/only-in-a.txt,\n" +
            "                                        only-in-b.txt, differing.txt; and the feed operations that make B equal\n" +
            "                                        to A to DIR/repair.jsonl (puts of A's version) and delete-extra.jsonl\n" +
            "                                        (removes of what only B has), for ./sluice feed --endpoint B --file ...\n" +
            "  --repair                              put to B each document only in A or differing, as A has it\n" +
            "  --delete-extra                        with --repair: also remove from B the documents only B has\n" +
            "  --fieldset FIELDSET                   compare only these fields, e.g. 'music:title' (alias: --field-set)\n" +
            ConnectionOptions.HELP.replaceAll("(?m)^  --endpoint.*\n", "") +
            VisitOptions.HELP.replaceAll("(?m)^  --from TIME.*\n", "")
                             .replaceAll("(?m)^  --field-set.*\n", "")
                             .replaceAll("(?m)^  --slice-id.*\n", "") +
            "  --connections N                       HTTP/2 connections per endpoint (default 8)\n" +
            "  --temp-dir DIR                        where the ids and digests (and, for --out or --repair, A's documents)\n" +
            "                                        are spilled while comparing (default: the system's temporary directory)\n" +
            "  --partitions N                        spill partitions per endpoint (default 256); what is compared in memory\n" +
            "                                        at once is the ids of one partition of each endpoint\n" +
            "  --silent                              no progress output\n" +
            "  --verbose                             print stack traces\n" +
            "  --help\n";

    private final PrintStream out;
    private final PrintStream err;
    private final boolean terminal;
    private final java.util.concurrent.atomic.AtomicLong visitedNanos = new java.util.concurrent.atomic.AtomicLong(-1); // once done

    DiffCommand(PrintStream out, PrintStream err, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    /** Everything the command line asked for. */
    private record Request(URI a, URI b, Args args, VisitOptions options, Optional<Path> out, Path tempDir, int partitions,
                           int connections, boolean repair, boolean deleteExtra, boolean keepDocuments) { }

    int run(String[] argv) {
        Request request;
        try {
            request = parse(argv);
            if (request == null) {
                out.print(HELP);
                return EQUAL;
            }
        }
        catch (UsageException | IllegalArgumentException e) {
            err.println("Error: " + e.getMessage());
            return ERROR;
        }
        Path spillDirectory = null;
        try {
            Files.createDirectories(request.tempDir());
            spillDirectory = Files.createTempDirectory(request.tempDir(), "sluice-diff-");
            return diff(request, spillDirectory);
        }
        catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("Error: interrupted");
            return ERROR;
        }
        catch (FeedException | UsageException | UncheckedIOException | IOException e) {
            err.println("Error: " + e.getMessage());
            if (request.args().has("verbose")) e.printStackTrace(err);
            return ERROR;
        }
        finally {
            if (spillDirectory != null) deleteQuietly(spillDirectory);
        }
    }

    private static Request parse(String[] argv) {
        List<String> endpoints = new ArrayList<>();
        int i = 0;
        for (; i < argv.length && ! argv[i].startsWith("--"); i++) endpoints.add(argv[i]);
        // --fieldset, as the Vespa CLI spells it, is --field-set of visit and copy.
        String[] rest = java.util.Arrays.stream(argv, i, argv.length)
                                        .map(arg -> arg.equals("--fieldset") ? "--field-set" : arg.startsWith("--fieldset=") ? "--field-set" + arg.substring(10) : arg)
                                        .toArray(String[]::new);
        Args args = Args.parse(rest, FLAGS, OPTIONS, ConnectionOptions.MULTI);
        if (args.has("help")) return null;
        if (endpoints.size() != 2)
            throw new UsageException("Give the two endpoints to compare first: sluice diff A B [options], but got " +
                                     (endpoints.isEmpty() ? "none" : endpoints));
        for (String name : List.of("endpoint", "from-time", "to-time", "slice-id"))
            if (args.given(name))
                throw new UsageException("Option '--" + name + "' does not go with diff: " + switch (name) {
                    case "endpoint" -> "give the two endpoints as the first arguments";
                    case "slice-id" -> "Vespa and Sluice split slices differently, so slice i of A is not slice i of B";
                    default -> "documents copied later carry later timestamps, so a time range selects different documents of A and B";
                });
        boolean repair = args.has("repair"), deleteExtra = args.has("delete-extra");
        if (deleteExtra && ! repair) throw new UsageException("Option '--delete-extra' goes with '--repair'");
        Optional<String> fieldSet = args.value("field-set");
        boolean partial = fieldSet.isPresent() && ! fieldSet.get().equals("[all]") && ! fieldSet.get().endsWith(":[document]");
        if (repair && partial)
            throw new UsageException("Option '--repair' does not go with '--fieldset " + fieldSet.get() + "': puts of some fields would replace whole documents");
        VisitOptions options = VisitOptions.parse(args, OptionalInt.empty(), "from-time", "to-time").splitWhole(VisitCommand.STREAMS);
        Optional<Path> outDirectory = args.value("out").map(Path::of);
        Path tempDir = Path.of(args.value("temp-dir").orElse(System.getProperty("java.io.tmpdir")));
        return new Request(url(endpoints.get(0), "A"), url(endpoints.get(1), "B"), args, options, outDirectory, tempDir,
                           args.intValue("partitions", 256, 1, 1 << 16), args.intValue("connections", 8, 1, 1024),
                           repair, deleteExtra, (repair || outDirectory.isPresent()) && ! partial);
    }

    private int diff(Request request, Path spillDirectory) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Args args = request.args();
        boolean silent = args.has("silent");
        LongAdder visitedA = new LongAdder(), visitedB = new LongAdder();
        AtomicInteger compared = new AtomicInteger(-1); // partitions compared; -1 while visiting
        visitedNanos.set(-1);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "sluice-diff-progress");
            thread.setDaemon(true);
            return thread;
        });
        ExecutorService workers = null;
        DiffComparison.Counts counts;
        DiffActions actions = null;
        try (DiffSpill spillA = new DiffSpill(spillDirectory, "a", request.partitions(), request.keepDocuments());
             DiffSpill spillB = new DiffSpill(spillDirectory, "b", request.partitions(), false);
             VisitClient a = ConnectionOptions.builder(args, request.a()).setConnectionsPerEndpoint(request.connections()).buildVisitClient();
             VisitClient b = ConnectionOptions.builder(args, request.b()).setConnectionsPerEndpoint(request.connections()).buildVisitClient()) {
            VisitOptions options = request.options();
            List<VisitOptions.Unit> unitsA = options.units(options.discovers() ? a.contentClusters() : options.clusters);
            List<VisitOptions.Unit> unitsB = options.units(options.discovers() ? b.contentClusters() : options.clusters);
            AtomicLongArray permilleA = new AtomicLongArray(unitsA.size()), permilleB = new AtomicLongArray(unitsB.size());
            if ( ! silent)
                timer.scheduleAtFixedRate(() -> progress(start, visitedA, visitedB, permilleA, permilleB, compared, request.partitions(), false),
                                          terminal ? 1 : 10, terminal ? 1 : 10, TimeUnit.SECONDS);
            workers = Executors.newFixedThreadPool(unitsA.size() + unitsB.size(), task -> new Thread(task, "sluice-diff-slice"));
            List<Future<?>> futures = new ArrayList<>();
            // A's and B's slices interleaved, so both endpoints are visited at once from the start.
            for (int i = 0; i < Math.max(unitsA.size(), unitsB.size()); i++) {
                if (i < unitsA.size()) futures.add(submit(workers, a, options, unitsA.get(i), new DiffSink(spillA, visitedA, permilleA, i)));
                if (i < unitsB.size()) futures.add(submit(workers, b, options, unitsB.get(i), new DiffSink(spillB, visitedB, permilleB, i)));
            }
            if ( ! VisitCommand.awaitAll(futures, err, args.has("verbose"))) return ERROR;
            spillA.finishWriting();
            spillB.finishWriting();
            visitedNanos.set(System.nanoTime() - start);
            compared.set(0);
            Optional<FeedClient> target = request.repair()
                                          ? Optional.of(ConnectionOptions.builder(args, request.b()).setConnectionsPerEndpoint(request.connections()).build())
                                          : Optional.empty();
            actions = new DiffActions(request.out(), request.keepDocuments(), target, request.deleteExtra(), this::failure);
            counts = DiffComparison.compare(spillA, spillB, actions, p -> compared.incrementAndGet(),
                                            Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors())));
            actions.close();
        }
        finally {
            if (workers != null) workers.shutdownNow();
            timer.shutdownNow();
            if (actions != null) actions.closeQuietly();
        }
        if ( ! silent) progress(start, visitedA, visitedB, null, null, compared, request.partitions(), true);
        double seconds = (System.nanoTime() - start) / 1e9;
        out.println(summary(counts, actions, request, seconds));
        if (actions.failed.sum() > 0) {
            err.println("Error: " + actions.failed.sum() + " repairs of B failed; run the diff again to see what is left");
            return ERROR;
        }
        return counts.differences() == 0 ? EQUAL : DIFFERENT;
    }

    private static Future<?> submit(ExecutorService workers, VisitClient client, VisitOptions options, VisitOptions.Unit unit,
                                    DiffSink sink) {
        return workers.submit(() -> {
            client.visit(options.parameters(unit), unit.slice(), Optional.empty(), sink);
            return null;
        });
    }

    private static String summary(DiffComparison.Counts counts, DiffActions actions, Request request, double seconds) {
        StringBuilder json = new StringBuilder("{");
        json.append("\"equal\":").append(counts.differences() == 0);
        json.append(",\"onlyInA\":").append(counts.onlyInA());
        json.append(",\"onlyInB\":").append(counts.onlyInB());
        json.append(",\"differing\":").append(counts.differing());
        json.append(",\"same\":").append(counts.equal());
        json.append(",\"documentsA\":").append(counts.documentsA());
        json.append(",\"documentsB\":").append(counts.documentsB());
        if (request.repair()) {
            json.append(",\"repaired\":").append(actions.repaired.sum());
            json.append(",\"deleted\":").append(actions.deleted.sum());
            json.append(",\"repairFailed\":").append(actions.failed.sum());
        }
        json.append(",\"seconds\":").append(String.format(Locale.ROOT, "%.3f", seconds));
        return json.append('}').toString();
    }

    private void failure(String message) {
        synchronized (err) {
            err.println("Failed: " + message);
        }
    }

    private void progress(long start, LongAdder visitedA, LongAdder visitedB, AtomicLongArray permilleA,
                          AtomicLongArray permilleB, AtomicInteger compared, int partitions, boolean last) {
        double seconds = Math.max((System.nanoTime() - start) / 1e9, 1e-9);
        long a = visitedA.sum(), b = visitedB.sum();
        String line;
        if (compared.get() < 0) {
            double fraction = Math.min(fraction(permilleA), fraction(permilleB));
            line = String.format(Locale.ROOT, "diff: visiting  A %,d  B %,d documents  %,.0f docs/s  %.1f%%", a, b, (a + b) / seconds, 100 * fraction);
            if (fraction > 0.001 && fraction < 1) {
                long eta = (long) (seconds / fraction - seconds);
                line += String.format(Locale.ROOT, "  ETA %d:%02d:%02d", eta / 3600, eta / 60 % 60, eta % 60);
            }
        }
        else {
            double visiting = visitedNanos.get() / 1e9;
            line = String.format(Locale.ROOT, "diff: visited  A %,d  B %,d documents in %.1f s  compared %d/%d partitions in %.1f s",
                                 a, b, visiting, compared.get(), partitions, seconds - visiting);
        }
        synchronized (err) {
            if (terminal) err.print("\r" + line + (last ? "\n" : "   "));
            else err.println(line);
            err.flush();
        }
    }

    private static double fraction(AtomicLongArray permille) {
        if (permille == null || permille.length() == 0) return 1;
        long total = 0;
        for (int i = 0; i < permille.length(); i++) total += permille.get(i);
        return total / 1000.0 / permille.length();
    }

    private static URI url(String value, String name) {
        try {
            URI uri = new URI(value);
            if ( ! "http".equals(uri.getScheme()) && ! "https".equals(uri.getScheme()) || uri.getHost() == null)
                throw new UsageException("Endpoint " + name + " must be an http:// or https:// URL with a host, but was '" + value + "'");
            return uri;
        }
        catch (URISyntaxException e) {
            throw new UsageException("Endpoint " + name + " is not a valid URL: '" + value + "'");
        }
    }

    private static void deleteQuietly(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
        catch (IOException | UncheckedIOException ignored) {
            // a leftover temporary directory is no reason to fail a diff that ran
        }
    }

}
