package io.sluice.feed.cli;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.sluice.feed.DocumentId;
import io.sluice.feed.FeedClient;
import io.sluice.feed.OperationParameters;
import io.sluice.feed.Result;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * What {@code sluice diff} does with each difference: writes its id to the id files of {@code --out}, and the
 * operations that make B equal to A to {@code repair.jsonl} (puts of A's version) and {@code delete-extra.jsonl}
 * (removes of what only B has); and with {@code --repair} sends those puts to B, and with {@code --delete-extra} the
 * removes too, through the feed client (retried, throttled). {@link #close} waits for B's answers.
 */
final class DiffActions implements DiffComparison.Differences, AutoCloseable {

    static final String ONLY_IN_A = "only-in-a.txt", ONLY_IN_B = "only-in-b.txt", DIFFERING = "differing.txt",
                        REPAIR = "repair.jsonl", DELETE_EXTRA = "delete-extra.jsonl";

    private final Writer onlyInA, onlyInB, differing, repairFile, deleteFile; // null without --out (repairFile: or documents)
    private final FeedClient target;   // null without --repair
    private final boolean deleteExtra;
    private final Consumer<String> failures;
    private boolean closed = false;
    final LongAdder repaired = new LongAdder(), deleted = new LongAdder(), failed = new LongAdder();

    /**
     * @param out where to write the files, if anywhere
     * @param documents whether A's documents are at hand, for {@code repair.jsonl}
     * @param target B's feed client, with {@code --repair}
     */
    DiffActions(Optional<Path> out, boolean documents, Optional<FeedClient> target, boolean deleteExtra,
                Consumer<String> failures) throws IOException {
        if (out.isPresent()) Files.createDirectories(out.get());
        this.onlyInA = writer(out, ONLY_IN_A);
        this.onlyInB = writer(out, ONLY_IN_B);
        this.differing = writer(out, DIFFERING);
        this.repairFile = documents ? writer(out, REPAIR) : null;
        this.deleteFile = writer(out, DELETE_EXTRA);
        if (out.isPresent() && ! documents) Files.deleteIfExists(out.get().resolve(REPAIR)); // not one of an earlier run
        this.target = target.orElse(null);
        this.deleteExtra = deleteExtra;
        this.failures = failures;
    }

    private static Writer writer(Optional<Path> out, String name) throws IOException {
        return out.isEmpty() ? null : Files.newBufferedWriter(out.get().resolve(name), StandardCharsets.UTF_8);
    }

    @Override public void onlyInA(String id, byte[] document) throws IOException {
        line(onlyInA, id);
        put(id, document);
    }

    @Override public void differing(String id, byte[] document) throws IOException {
        line(differing, id);
        put(id, document);
    }

    @Override public void onlyInB(String id) throws IOException {
        line(onlyInB, id);
        line(deleteFile, "{\"remove\":" + quoted(id) + "}");
        if (target != null && deleteExtra)
            target.remove(DocumentId.of(id), OperationParameters.empty()).whenComplete((result, failure) -> count(id, failure, deleted));
    }

    private void put(String id, byte[] document) throws IOException {
        if (document == null) return;
        CopySink.Put put = CopySink.Put.of(document);
        line(repairFile, "{\"put\":" + quoted(id) + "," + put.body().substring(1));
        if (target != null) {
            CompletableFuture<Result> result = target.put(DocumentId.of(id), put.body(), OperationParameters.empty());
            result.whenComplete((__, failure) -> count(id, failure, repaired));
        }
    }

    private void count(String id, Throwable failure, LongAdder done) {
        if (failure == null) done.increment();
        else {
            failed.increment();
            failures.accept(id + ": " + failure.getMessage());
        }
    }

    /** Closes after a failure, which is what gets reported. */
    void closeQuietly() {
        try {
            close();
        }
        catch (IOException | RuntimeException ignored) {
            // the failure that got here is the one to report
        }
    }

    private static void line(Writer writer, String text) throws IOException {
        if (writer == null) return;
        writer.write(text);
        writer.write('\n');
    }

    private static String quoted(String id) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(id)) + "\"";
    }

    /** Closes the files, and waits for B's answers to the repairs; once. */
    @Override public void close() throws IOException {
        if (closed) return;
        closed = true;
        IOException failure = null;
        for (Writer writer : new Writer[] { onlyInA, onlyInB, differing, repairFile, deleteFile }) {
            try {
                if (writer != null) writer.close();
            }
            catch (IOException e) {
                failure = e;
            }
        }
        if (target != null) target.close(); // graceful: waits for every operation
        if (failure != null) throw failure;
    }

}
