package io.sluice.feed.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SliceWriterTest {

    @TempDir Path tmp;

    private final LongAdder documents = new LongAdder();
    private final AtomicLongArray permille = new AtomicLongArray(2);

    private static void document(SliceWriter writer, String json) throws IOException {
        byte[] bytes = ("xx" + json).getBytes(StandardCharsets.UTF_8);
        writer.document(bytes, 2, bytes.length - 2);
    }

    @Test
    void sharedOutput_getsNothingUntilABlockFillsOrAContinuationComes() throws IOException {
        ByteArrayOutputStream shared = new ByteArrayOutputStream();
        SliceWriter writer = SliceWriter.toShared(0, shared, null, documents, permille);
        document(writer, "{\"id\":\"a\"}");
        assertEquals("", shared.toString(StandardCharsets.UTF_8));
        writer.continuation(Optional.of("T"), 50);
        assertEquals("{\"id\":\"a\"}\n", shared.toString(StandardCharsets.UTF_8));
        assertEquals(500, permille.get(0));
    }

    @Test
    void sharedOutput_takesWholeLinesFromEachSlice_documentsBiggerThanABlockIncluded() throws IOException {
        ByteArrayOutputStream shared = new ByteArrayOutputStream();
        SliceWriter first = SliceWriter.toShared(0, shared, null, documents, permille);
        SliceWriter second = SliceWriter.toShared(1, shared, null, documents, permille);
        String big = "{\"id\":\"big\",\"f\":\"" + "b".repeat(SliceWriter.BLOCK_BYTES) + "\"}";
        for (int i = 0; i < 2000; i++) {
            document(first, "{\"id\":\"first-" + i + "\"}");
            document(second, i % 500 == 0 ? big : "{\"id\":\"second-" + i + "\"}");
        }
        first.close();
        second.close();
        String[] lines = shared.toString(StandardCharsets.UTF_8).split("\n", -1);
        assertEquals(4001, lines.length);
        assertEquals("", lines[4000]);
        for (int i = 0; i < 4000; i++)
            assertTrue(lines[i].matches("\\{\"id\":\"(first-\\d+|second-\\d+|big\",\"f\":\"b+)\"}"), lines[i].substring(0, Math.min(80, lines[i].length())));
        assertEquals(4000, documents.sum());
    }

    @Test
    void file_keepsTheCheckpointedPrefix_andDropsTheRest() throws IOException {
        Path path = Files.writeString(tmp.resolve("slice-0000.jsonl"), "{\"id\":\"kept\"}\n{\"id\":\"after-checkpoint\"}\n");
        try (SliceWriter writer = SliceWriter.toFile(0, path, 14, null, documents, permille)) {
            document(writer, "{\"id\":\"new\"}");
        }
        assertEquals("{\"id\":\"kept\"}\n{\"id\":\"new\"}\n", Files.readString(path));
    }

    @Test
    void file_rewind_dropsEverythingAfterTheLastContinuation() throws IOException {
        Path path = tmp.resolve("slice-0000.jsonl");
        try (SliceWriter writer = SliceWriter.toFile(0, path, 0, null, documents, permille)) {
            document(writer, "{\"id\":\"a\"}");
            writer.continuation(Optional.of("T"), Double.NaN);
            for (int i = 0; i < 10_000; i++) document(writer, "{\"id\":\"again-" + i + "\"}"); // some reach the file
            writer.rewind();
            document(writer, "{\"id\":\"b\"}");
        }
        assertEquals("{\"id\":\"a\"}\n{\"id\":\"b\"}\n", Files.readString(path));
        assertEquals(2, documents.sum());
    }

    @Test
    void file_continuation_recordsTheOutputBytesInTheCheckpoint() throws IOException {
        Checkpoint checkpoint = Checkpoint.load(tmp.resolve("checkpoint"), "key", 2);
        Path path = tmp.resolve("slice-0001.jsonl");
        try (SliceWriter writer = SliceWriter.toFile(1, path, 0, checkpoint, documents, permille)) {
            document(writer, "{\"id\":\"a\"}");
            writer.continuation(Optional.of("T1"), 25);
            assertEquals(new Checkpoint.Slice(Checkpoint.State.TOKEN, 11, Optional.of("T1")), checkpoint.slice(1));
            assertEquals(11, Files.size(path));
        }
    }

}
