package io.sluice.feed.cli;

import io.sluice.feed.VisitParameters;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What {@code sluice visit} and {@code sluice copy} visit, read from their arguments: the clusters ({@code *} for every
 * cluster the server has), bucket spaces and slices, as a list of units, one per (bucket space, cluster, slice); and the
 * parameters each unit's requests share. Names and meanings follow the Vespa CLI's {@code vespa visit}; Sluice's older
 * names stay as aliases.
 */
final class VisitOptions {

    /** Flags and options the selection takes, on top of each command's own. */
    static final Set<String> FLAGS = Set.of("stream", "pretty-json");
    static final Set<String> OPTIONS = Set.of("cluster", "content-cluster", "selection", "field-set", "bucket-space", "from",
                                              "to", "slices", "slice-id", "namespace", "document-type", "timeout", "chunk-count",
                                              "wait", "target", "zone", "application", "instance");

    /** {@code vespa visit} flags that have no meaning here, with why: given, they are an error rather than ignored. */
    static final Map<String, String> UNSUPPORTED = Map.of(
            "pretty-json", "sluice writes one document per line; pipe through 'jq .' to indent",
            "wait", "sluice does not wait for the server to come up; it retries 503s and failed connections instead",
            "target", "give the server with --endpoint URL",
            "zone", "Vespa Cloud targets are not supported; give the endpoint with --endpoint URL",
            "application", "Vespa Cloud targets are not supported; give the endpoint with --endpoint URL",
            "instance", "Vespa Cloud targets are not supported; give the endpoint with --endpoint URL");

    static final String HELP =
            "  --content-cluster CLUSTER[,CLUSTER…]  content clusters to visit; '*' (the default) means every one the server has\n" +
            "                                        (alias: --cluster)\n" +
            "  --selection EXPRESSION                document selection\n" +
            "  --field-set FIELDSET                  fields to return, e.g. '[all]' or 'music:title'\n" +
            "  --bucket-space global,default         bucket spaces to visit, in that order (default: both, as vespa visit)\n" +
            "  --from TIME, --to TIME                time range: epoch seconds or RFC 3339\n" +
            "  --namespace NS --document-type TYPE   visit /document/v1/NS/TYPE/docid/ (its own bucket space only)\n" +
            "  --slices N                            slices in total, per cluster and bucket space (default 8)\n" +
            "  --slice-id I                          run only slice I, for spreading slices over processes\n" +
            "  --stream[=true|false]                 streamed responses (default true); false visits in pages\n" +
            "  --chunk-count N                       documents per response (wantedDocumentCount); default: a whole slice\n" +
            "                                        when streamed, 1000 in pages\n" +
            "  --timeout SECONDS                     time per request before continuing with a new one (default 60)\n";

    /** One slice of one cluster in one bucket space (empty: the document type's), and its index in the checkpoint. */
    record Unit(int index, String cluster, Optional<String> bucketSpace, int slice) { }

    final List<String> clusters;          // "*" alone: to be discovered
    final List<Optional<String>> bucketSpaces;
    final List<Integer> sliceIds;         // of the --slices the user gave
    final int slices;                     // --slices
    final int split;                      // server slices per slice
    final VisitParameters parameters;     // with the first cluster, and slices × split slices; each unit's are made from it

    private VisitOptions(List<String> clusters, List<Optional<String>> bucketSpaces, List<Integer> sliceIds, int slices,
                         int split, VisitParameters parameters) {
        this.clusters = clusters;
        this.bucketSpaces = bucketSpaces;
        this.sliceIds = sliceIds;
        this.slices = slices;
        this.split = split;
        this.parameters = parameters;
    }

    /**
     * These options with a visit of everything as one slice (no {@code --slices}, or 1) read as {@code streams} slices
     * of the server in parallel; any other visit as it is. A slice is one stream, which one server thread renders, so
     * a one-slice dump gets more of the server this way. Only the whole is split: servers split slices differently
     * (Vespa deals superbuckets out round-robin, Sluice in contiguous runs), so the server's slices i, i + N, … of N × k
     * are slice i of N on one and not on the other, while all k slices of k are everything on both. So
     * {@code --slice-id} names the server's slice whatever the output, and N > 1 slices are already N streams.
     */
    VisitOptions splitWhole(int streams) {
        return slices == 1 ? split(streams) : this;
    }

    private VisitOptions split(int split) {
        return new VisitOptions(clusters, bucketSpaces, sliceIds, slices, split, parameters.withSlices(slices * split));
    }

    /** As {@link #parse(Args, OptionalInt, String, String)} with the time range in {@code --from} and {@code --to}. */
    static VisitOptions parse(Args args, OptionalInt defaultChunk) {
        return parse(args, defaultChunk, "from", "to");
    }

    /**
     * @param defaultChunk documents per response when not given and streamed, e.g. for rotating files
     * @param from the option of the time range's start, {@code to} of its end
     */
    static VisitOptions parse(Args args, OptionalInt defaultChunk, String from, String to) {
        for (String name : UNSUPPORTED.keySet())
            if (args.given(name)) throw new UsageException("Option '--" + name + "' of vespa visit is not supported: " + UNSUPPORTED.get(name));
        if (args.has("cluster") && args.has("content-cluster"))
            throw new UsageException("Options '--cluster' and '--content-cluster' are the same; give one");
        String clusterList = args.value("content-cluster").or(() -> args.value("cluster")).orElse("*");
        List<String> clusters = names(clusterList, "content-cluster");
        if (clusters.contains("*") && clusters.size() > 1)
            throw new UsageException("Option '--content-cluster' is either '*' or names clusters, but was '" + clusterList + "'");
        if (args.has("namespace") != args.has("document-type"))
            throw new UsageException("Options '--namespace' and '--document-type' must be given together");
        List<Optional<String>> spaces = new ArrayList<>();
        if (args.has("bucket-space")) {
            if (args.has("document-type"))
                throw new UsageException("Option '--bucket-space' does not go with '--document-type': a document type's own bucket space is visited");
            for (String space : names(args.value("bucket-space").get(), "bucket-space")) {
                if ( ! space.equals("default") && ! space.equals("global"))
                    throw new UsageException("Option '--bucket-space' takes 'default' and 'global', but got '" + space + "'");
                if (spaces.contains(Optional.of(space))) throw new UsageException("Option '--bucket-space' names '" + space + "' twice");
                spaces.add(Optional.of(space));
            }
        }
        else if (args.has("document-type")) spaces.add(Optional.empty());
        else spaces.addAll(List.of(Optional.of("global"), Optional.of("default")));

        int slices = args.intValue("slices", 8, 1, 1 << 16);
        List<Integer> sliceIds = new ArrayList<>();
        if (args.has("slice-id")) sliceIds.add(args.intValue("slice-id", 0, 0, slices - 1));
        else for (int i = 0; i < slices; i++) sliceIds.add(i);
        boolean stream = ! args.given("stream") || args.has("stream");
        OptionalInt chunk = args.has("chunk-count") ? OptionalInt.of(args.intValue("chunk-count", 1000, 1, Integer.MAX_VALUE))
                            : stream ? defaultChunk : OptionalInt.of(1000);
        double timeout = args.doubleValue("timeout", 1).orElse(60.0);
        VisitParameters parameters = new VisitParameters(clusters.get(0), args.value("namespace"), args.value("document-type"),
                                                         args.value("selection"), args.value("field-set"), Optional.empty(),
                                                         micros(args, from), micros(args, to), slices,
                                                         Duration.ofMillis((long) (timeout * 1000)), stream, chunk);
        return new VisitOptions(clusters, List.copyOf(spaces), List.copyOf(sliceIds), slices, 1, parameters);
    }

    boolean discovers() { return clusters.equals(List.of("*")); }

    /** The units to visit over {@code clusters}, bucket space by bucket space, then cluster by cluster. */
    List<Unit> units(List<String> clusters) {
        List<Unit> units = new ArrayList<>();
        int serverSlices = parameters.slices();
        for (int s = 0; s < bucketSpaces.size(); s++)
            for (int c = 0; c < clusters.size(); c++)
                for (int slice : sliceIds)
                    for (int part = 0; part < split; part++) {
                        int serverSlice = slice + part * slices;
                        units.add(new Unit((s * clusters.size() + c) * serverSlices + serverSlice, clusters.get(c),
                                           bucketSpaces.get(s), serverSlice));
                    }
        return units;
    }

    /** The size of the checkpoint over {@code clusters}: every slice of every cluster and bucket space. */
    int unitCount(List<String> clusters) {
        return bucketSpaces.size() * clusters.size() * parameters.slices();
    }

    VisitParameters parameters(Unit unit) {
        return parameters.withCluster(unit.cluster()).withBucketSpace(unit.bucketSpace());
    }

    /** What is visited, as a line of the checkpoint, so a checkpoint of another visit is refused. */
    String key(String mode, List<String> clusters) {
        VisitParameters p = parameters;
        List<String> spaces = bucketSpaces.stream().map(s -> s.orElse("")).toList();
        return String.join("|", mode, String.join(",", clusters), p.namespace().orElse(""), p.documentType().orElse(""),
                           p.selection().orElse(""), p.fieldSet().orElse(""), String.join(",", spaces),
                           text(p.fromTimestamp()), text(p.toTimestamp())).replace('\n', ' ');
    }

    /** A prefix for the unit's files that tells clusters and bucket spaces apart, when there is more than one. */
    String filePrefix(Unit unit, List<String> clusters) {
        if (clusters.size() == 1 && bucketSpaces.size() == 1) return "";
        return unit.cluster() + unit.bucketSpace().map(space -> "-" + space).orElse("") + "-";
    }

    private static List<String> names(String list, String option) {
        List<String> names = new ArrayList<>();
        for (String name : list.split(",")) {
            if (name.isBlank()) throw new UsageException("Option '--" + option + "' has an empty name in '" + list + "'");
            names.add(name.trim());
        }
        return List.copyOf(names);
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

    /** A byte count with an optional k, M or G suffix (powers of 1024). */
    static long bytes(Args args, String name) {
        String value = args.value(name).get().trim();
        long unit = 1;
        char last = value.isEmpty() ? ' ' : Character.toLowerCase(value.charAt(value.length() - 1));
        if (last == 'k' || last == 'm' || last == 'g') {
            unit = last == 'k' ? 1 << 10 : last == 'm' ? 1 << 20 : 1 << 30;
            value = value.substring(0, value.length() - 1);
        }
        try {
            long parsed = Long.parseLong(value);
            if (parsed < 1) throw new NumberFormatException();
            return Math.multiplyExact(parsed, unit);
        }
        catch (NumberFormatException | ArithmeticException e) {
            throw new UsageException("Option '--" + name + "' needs a positive byte count like 100M, but got '" + args.value(name).get() + "'");
        }
    }

}
