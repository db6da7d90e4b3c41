package io.sluice.feed.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.sluice.feed.DocumentId;
import io.sluice.feed.FeedClient;
import io.sluice.feed.OperationParameters;
import io.sluice.feed.VisitSink;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Consumer;

/**
 * Puts one slice's visited documents to the target. Documents are sent in batches of {@value #BATCH}, each shuffled,
 * so the target gets them out of the source's bucket order; the feed client blocks this (the slice's) thread when it
 * is full. At a continuation, the slice waits until the target acknowledged (or the dead-letter file took) every
 * document before it, and only then records the token in the checkpoint. After a rewind, documents already sent since
 * the last token come again and are put again: the same put twice leaves the same document.
 */
final class CopySink implements VisitSink {

    static final int BATCH = 256;
    private static final JsonFactory json = new JsonFactory();

    private final int unit;
    private final FeedClient target;
    private final Checkpoint checkpoint; // null without --checkpoint
    private final CopyStats stats;
    private final AtomicLongArray permille;
    private final Consumer<byte[]> deadLetters;
    private final Consumer<String> failures;
    private final List<byte[]> batch = new ArrayList<>(BATCH);
    private long outstanding = 0; // sent, not yet completed; guarded by this

    CopySink(int unit, FeedClient target, Checkpoint checkpoint, CopyStats stats, AtomicLongArray permille,
             Consumer<byte[]> deadLetters, Consumer<String> failures) {
        this.unit = unit;
        this.target = target;
        this.checkpoint = checkpoint;
        this.stats = stats;
        this.permille = permille;
        this.deadLetters = deadLetters;
        this.failures = failures;
    }

    @Override
    public void document(byte[] bytes, int offset, int length) throws IOException {
        batch.add(Arrays.copyOfRange(bytes, offset, offset + length));
        stats.visited.increment();
        if (batch.size() == BATCH) send();
    }

    @Override
    public void continuation(Optional<String> token, double percentFinished) throws IOException {
        send();
        synchronized (this) {
            try {
                while (outstanding > 0) wait();
            }
            catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("Interrupted while waiting for the target");
            }
        }
        if (checkpoint != null) checkpoint.update(unit, token, 0);
        if (token.isEmpty()) permille.set(unit, 1000);
        else if ( ! Double.isNaN(percentFinished)) permille.set(unit, (long) (percentFinished * 10));
    }

    /** Drops documents not yet sent: they come again. */
    @Override
    public void rewind() {
        stats.visited.add(-batch.size());
        batch.clear();
    }

    private void send() throws IOException {
        Collections.shuffle(batch, ThreadLocalRandom.current());
        for (byte[] line : batch) put(line);
        batch.clear();
    }

    private void put(byte[] line) throws IOException {
        Put put = Put.of(line);
        synchronized (this) { outstanding++; }
        target.put(DocumentId.of(put.id), put.body, OperationParameters.empty()).whenComplete((result, failure) -> {
            try {
                if (failure == null) {
                    stats.fed.increment();
                    stats.bytes.add(line.length);
                }
                else {
                    stats.failed.increment();
                    failures.accept(put.id + ": " + failure.getMessage());
                    deadLetters.accept(line);
                }
            }
            finally {
                synchronized (this) {
                    if (--outstanding == 0) notifyAll();
                }
            }
        });
    }

    /** A visited line {@code {"id":…,"fields":…}} as a document id and a put body {@code {"fields":…}}. */
    record Put(String id, String body) {

        static Put of(byte[] line) throws IOException {
            String id = null;
            long fields = -1;
            try (JsonParser parser = json.createParser(line)) {
                if (parser.nextToken() != JsonToken.START_OBJECT) throw new IOException("Not a JSON object: " + text(line));
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    long at = parser.currentTokenLocation().getByteOffset();
                    parser.nextToken();
                    if (name.equals("id") || name.equals("put")) id = parser.getValueAsString();
                    else if (name.equals("fields")) {
                        fields = at;
                        break;
                    }
                    else parser.skipChildren();
                }
            }
            if (id == null) throw new IOException("A visited document without an id: " + text(line));
            if (fields < 0) return new Put(id, "{\"fields\":{}}");
            return new Put(id, "{" + new String(line, (int) fields, line.length - (int) fields, StandardCharsets.UTF_8));
        }

        private static String text(byte[] line) {
            return new String(line, 0, Math.min(line.length, 200), StandardCharsets.UTF_8);
        }

    }

}
