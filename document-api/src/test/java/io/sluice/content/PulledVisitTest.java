package io.sluice.content;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.FieldSet;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.json.FieldsJson;
import io.sluice.document.select.DocumentSelection;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PulledVisitTest {

    private static final DocumentType MUSIC = DocumentType.builder("music").field("year", PrimitiveType.INT).build();
    private static final DocumentId ID = DocumentId.of("id:ns:music::a");
    private static final VisitBatch FINISHED = new VisitBatch(List.of(), Optional.empty(), true, 100);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final AtomicBoolean engineClosed = new AtomicBoolean();

    /** A visit whose reads complete when the test says. */
    private static final class HeldVisit extends PulledVisit {

        CompletableFuture<VisitBatch> pending;
        int reads;

        HeldVisit(VisitSpec spec, ManualClock clock, AtomicBoolean engineClosed) {
            super("held", spec, clock, engineClosed::get);
        }

        @Override
        protected CompletableFuture<VisitBatch> read(int maxEntries, long maxBytes) {
            reads++;
            return pending = new CompletableFuture<>();
        }

        Optional<VisitEntry> liveEntry(Document document, long timestamp) {
            return live(document, timestamp, 100);
        }

        Optional<VisitEntry> storedEntry(long timestamp, FieldsJson json, Supplier<Document> decoder) {
            return live(ID, MUSIC, timestamp, 100, json, decoder);
        }

        Optional<VisitEntry> removedEntry(long timestamp) {
            return removed(ID, MUSIC, timestamp);
        }

    }

    private HeldVisit held(VisitSpec spec) {
        return new HeldVisit(spec, clock, engineClosed);
    }

    /** What {@code future} failed with, unwrapped. */
    private static Throwable failure(CompletableFuture<?> future) {
        RuntimeException e = assertThrows(RuntimeException.class, future::join);
        return e instanceof CompletionException ? e.getCause() : e;
    }

    @Test
    void next_whileAnotherIsOutstanding_fails_andIsAllowedOnceItCompletes() {
        HeldVisit visit = held(VisitSpec.builder().build());
        CompletableFuture<VisitBatch> first = visit.next(10);
        assertInstanceOf(IllegalStateException.class, failure(visit.next(10)));
        visit.pending.complete(FINISHED);
        assertEquals(FINISHED, first.join());
        visit.next(10);
        assertEquals(2, visit.reads);
    }

    @Test
    void next_afterFailedRead_isAllowedAgain() {
        HeldVisit visit = held(VisitSpec.builder().build());
        CompletableFuture<VisitBatch> first = visit.next(10);
        visit.pending.completeExceptionally(new IllegalStateException("store broke"));
        assertEquals("store broke", failure(first).getMessage());
        visit.next(10);
        assertEquals(2, visit.reads);
    }

    @Test
    void next_cancelled_failsWithoutReading() {
        HeldVisit visit = held(VisitSpec.builder().build());
        visit.cancel();
        assertInstanceOf(CancellationException.class, failure(visit.next(10)));
        assertEquals(0, visit.reads);
    }

    @Test
    void next_engineClosed_failsNamingIt() {
        HeldVisit visit = held(VisitSpec.builder().build());
        engineClosed.set(true);
        assertEquals("The held content backend is closed", failure(visit.next(10)).getMessage());
    }

    @Test
    void next_nonPositive_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> held(VisitSpec.builder().build()).next(0));
        assertThrows(IllegalArgumentException.class, () -> held(VisitSpec.builder().build()).next(1, 0));
    }

    @Test
    void readOn_rejectingExecutor_failsAsClosed() {
        PulledVisit visit = new PulledVisit("rejecting", VisitSpec.builder().build(), clock, () -> false) {
            @Override
            protected CompletableFuture<VisitBatch> read(int maxEntries, long maxBytes) {
                return readOn(task -> { throw new RejectedExecutionException("shut down"); }, () -> FINISHED);
            }
        };
        assertEquals("The rejecting content backend is closed", failure(visit.next(1)).getMessage());
    }

    @Test
    void live_filtersBySelectionTimeRangeAndFieldSet() {
        VisitSpec spec = VisitSpec.builder().selection(DocumentSelection.parse("music.year > 2000"))
                                  .timeRange(TimeRange.of(10, 20)).fieldSet(FieldSet.none()).build();
        HeldVisit visit = held(spec);
        Document recent = Document.of(MUSIC, ID).with("year", new IntValue(2001));
        Document old = Document.of(MUSIC, ID).with("year", new IntValue(1999));
        assertEquals(Optional.of(VisitEntry.put(Document.of(MUSIC, ID), 15)), visit.liveEntry(recent, 15));
        assertEquals(100, visit.liveEntry(recent, 15).orElseThrow().size());
        assertEquals(Optional.empty(), visit.liveEntry(old, 15));
        assertEquals(Optional.empty(), visit.liveEntry(recent, 25));
    }

    @Test
    void removed_onlyWithIncludeRemoves() {
        assertEquals(Optional.empty(), held(VisitSpec.builder().build()).removedEntry(15));
        HeldVisit visit = held(VisitSpec.builder().includeRemoves(true).build());
        assertEquals(Optional.of(VisitEntry.remove(ID, 15)), visit.removedEntry(15));
        assertTrue(visit.removedEntry(15).orElseThrow().isRemove());
    }


    private static final Document SONG = Document.builder(MUSIC, ID).set("year", new IntValue(1999)).build();
    private static final FieldsJson SONG_JSON = fieldsJson("{\"year\":1999}");

    private static FieldsJson fieldsJson(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return new FieldsJson(bytes, 0, bytes.length);
    }

    /** Decodes SONG and counts how often. */
    private static final class CountingDecoder implements Supplier<Document> {
        int calls;
        @Override public Document get() { calls++; return SONG; }
    }

    @Test
    void liveStored_withoutSelectionOrFieldSet_carriesTheBytes_andDecodesOnlyWhenAsked() {
        CountingDecoder decoder = new CountingDecoder();
        VisitEntry entry = held(VisitSpec.builder().build()).storedEntry(15, SONG_JSON, decoder).orElseThrow();
        assertEquals(Optional.of(SONG_JSON), entry.fieldsJson());
        assertEquals(0, decoder.calls);
        assertEquals(SONG, entry.document().orElseThrow());
        assertEquals(SONG, entry.document().orElseThrow());
        assertEquals(1, decoder.calls);
    }

    @Test
    void liveStored_selectionOnTypeOrId_decodesNothing() {
        CountingDecoder decoder = new CountingDecoder();
        HeldVisit visit = held(VisitSpec.builder().selection(DocumentSelection.parse("music and id.namespace == \"ns\"")).build());
        assertTrue(visit.storedEntry(15, SONG_JSON, decoder).isPresent());
        assertTrue(held(VisitSpec.builder().selection(DocumentSelection.parse("book")).build())
                           .storedEntry(15, SONG_JSON, decoder).isEmpty());
        assertEquals(0, decoder.calls);
    }

    @Test
    void liveStored_selectionOnField_decodesOnce_andStillCarriesTheBytes() {
        CountingDecoder decoder = new CountingDecoder();
        HeldVisit visit = held(VisitSpec.builder().selection(DocumentSelection.parse("music.year == 1999 or music.year == 2000")).build());
        VisitEntry entry = visit.storedEntry(15, SONG_JSON, decoder).orElseThrow();
        assertEquals(Optional.of(SONG_JSON), entry.fieldsJson());
        assertEquals(SONG, entry.document().orElseThrow());
        assertEquals(1, decoder.calls);
        assertTrue(held(VisitSpec.builder().selection(DocumentSelection.parse("music.year == 1")).build())
                           .storedEntry(15, SONG_JSON, decoder).isEmpty());
    }

    @Test
    void liveStored_withFieldSetOrWithoutBytes_decodes_andOutsideTheTimeRangeDoesNot() {
        CountingDecoder decoder = new CountingDecoder();
        VisitEntry filtered = held(VisitSpec.builder().fieldSet(FieldSet.none()).build())
                .storedEntry(15, SONG_JSON, decoder).orElseThrow();
        VisitEntry unstored = held(VisitSpec.builder().build()).storedEntry(15, null, decoder).orElseThrow();
        assertTrue(filtered.fieldsJson().isEmpty());
        assertEquals(Document.of(MUSIC, ID), filtered.document().orElseThrow());
        assertTrue(unstored.fieldsJson().isEmpty());
        assertEquals(SONG, unstored.document().orElseThrow());
        assertEquals(2, decoder.calls);
        assertTrue(held(VisitSpec.builder().timeRange(TimeRange.of(20, 30)).build()).storedEntry(15, SONG_JSON, decoder).isEmpty());
        assertEquals(2, decoder.calls);
    }
}
