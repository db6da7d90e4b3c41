package io.sluice.feed.cli;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SliceWriterTest {

    private final LongAdder documents = new LongAdder();
    private final AtomicLongArray permille = new AtomicLongArray(2);

    private static void document(SliceWriter writer, String json) throws IOException {
        byte[] bytes = ("xx" + json).getBytes(StandardCharsets.UTF_8);
        writer.document(bytes, 2, bytes.length - 2);
    }

    @Test
    void sharedOutput_getsNothingUntilABlockFillsOrAContinuationComes() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SharedOutput shared = new SharedOutput(bytes, false);
        SliceWriter writer = SliceWriter.toShared(0, shared, null, documents, permille);
        document(writer, "{\"id\":\"a\"}");
        assertEquals("", bytes.toString(StandardCharsets.UTF_8));
        writer.continuation(Optional.of("T"), 50);
        assertEquals("{\"id\":\"a\"}\n", bytes.toString(StandardCharsets.UTF_8));
        assertEquals(500, permille.get(0));
    }

    @Test
    void sharedOutput_takesWholeLinesFromEachSlice_documentsBiggerThanABlockIncluded() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SharedOutput shared = new SharedOutput(bytes, false);
        SliceWriter first = SliceWriter.toShared(0, shared, null, documents, permille);
        SliceWriter second = SliceWriter.toShared(1, shared, null, documents, permille);
        String big = "{\"id\":\"big\",\"f\":\"" + "b".repeat(SliceWriter.BLOCK_BYTES) + "\"}";
        for (int i = 0; i < 2000; i++) {
            document(first, "{\"id\":\"first-" + i + "\"}");
            document(second, i % 500 == 0 ? big : "{\"id\":\"second-" + i + "\"}");
        }
        first.close();
        second.close();
        String[] lines = bytes.toString(StandardCharsets.UTF_8).split("\n", -1);
        assertEquals(4001, lines.length);
        assertEquals("", lines[4000]);
        for (int i = 0; i < 4000; i++)
            assertTrue(lines[i].matches("\\{\"id\":\"(first-\\d+|second-\\d+|big\",\"f\":\"b+)\"}"), lines[i].substring(0, Math.min(80, lines[i].length())));
        assertEquals(4000, documents.sum());
    }

    @Test
    void array_dropsTheCommaBeforeTheOutputsFirstDocument_only() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SharedOutput shared = new SharedOutput(bytes, true);
        shared.begin();
        SliceWriter first = SliceWriter.toShared(0, shared, null, documents, permille);
        SliceWriter second = SliceWriter.toShared(1, shared, null, documents, permille);
        document(first, "{\"id\":\"a\"}");
        document(second, "{\"id\":\"b\"}");
        document(first, "{\"id\":\"c\"}");
        second.close();
        first.close();
        shared.end();
        assertEquals("[\n{\"id\":\"b\"}\n,{\"id\":\"a\"}\n,{\"id\":\"c\"}\n]\n", bytes.toString(StandardCharsets.UTF_8));
    }

    @Test
    void array_withoutDocuments_isEmpty() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SharedOutput shared = new SharedOutput(bytes, true);
        shared.begin();
        SliceWriter.toShared(0, shared, null, documents, permille).close();
        shared.end();
        assertEquals("[\n]\n", bytes.toString(StandardCharsets.UTF_8));
    }

}
