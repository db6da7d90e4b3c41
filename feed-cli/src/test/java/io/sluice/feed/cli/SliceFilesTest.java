package io.sluice.feed.cli;

import com.github.luben.zstd.ZstdInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SliceFilesTest {

    @TempDir Path tmp;

    private final LongAdder documents = new LongAdder();
    private final AtomicLongArray permille = new AtomicLongArray(2);
    private static final SliceFiles.Format JSONL = new SliceFiles.Format(false, SliceFiles.Compression.NONE, Long.MAX_VALUE, Long.MAX_VALUE);

    private static void document(SliceFiles files, String json) throws IOException {
        byte[] bytes = ("xx" + json).getBytes(StandardCharsets.UTF_8);
        files.document(bytes, 2, bytes.length - 2);
    }

    private SliceFiles open(SliceFiles.Format format, Checkpoint.Slice state, Checkpoint checkpoint) throws IOException {
        return SliceFiles.open(tmp, "", format, 1, 1, state, checkpoint, documents, permille);
    }

    private List<String> names() throws IOException {
        try (Stream<Path> files = Files.list(tmp)) {
            return files.map(path -> path.getFileName().toString()).filter(name -> ! name.startsWith("checkpoint")).sorted().toList();
        }
    }

    @Test
    void file_isPartialUntilTheLastContinuation_thenRenamed() throws IOException {
        try (SliceFiles files = open(JSONL, Checkpoint.Slice.START, null)) {
            document(files, "{\"id\":\"a\"}");
            files.continuation(Optional.of("T"), 50);
            assertEquals(List.of("slice-0001.jsonl.partial"), names());
            files.continuation(Optional.empty(), 100);
        }
        assertEquals(List.of("slice-0001.jsonl"), names());
        assertEquals("{\"id\":\"a\"}\n", Files.readString(tmp.resolve("slice-0001.jsonl")));
        assertEquals(1000, permille.get(1));
    }

    @Test
    void resume_keepsTheCheckpointedPrefix_andDropsTheRest() throws IOException {
        Files.writeString(tmp.resolve("slice-0001.jsonl.partial"), "{\"id\":\"kept\"}\n{\"id\":\"after-checkpoint\"}\n");
        try (SliceFiles files = open(JSONL, new Checkpoint.Slice(Checkpoint.State.TOKEN, 14, Optional.of("T"), 0), null)) {
            document(files, "{\"id\":\"new\"}");
            files.continuation(Optional.empty(), 100);
        }
        assertEquals("{\"id\":\"kept\"}\n{\"id\":\"new\"}\n", Files.readString(tmp.resolve("slice-0001.jsonl")));
    }

    @Test
    void resume_withThePartialFileShorterThanTheCheckpoint_isRefused() throws IOException {
        Files.writeString(tmp.resolve("slice-0001.jsonl.partial"), "{}\n");
        UsageException e = assertThrows(UsageException.class,
                                        () -> open(JSONL, new Checkpoint.Slice(Checkpoint.State.TOKEN, 14, Optional.of("T"), 0), null));
        assertEquals("The checkpoint says " + tmp.resolve("slice-0001.jsonl.partial") + " has 14 bytes, but it has 3; " +
                     "delete the checkpoint to start over", e.getMessage());
    }

    @Test
    void rewind_dropsEverythingAfterTheLastContinuation() throws IOException {
        try (SliceFiles files = open(JSONL, Checkpoint.Slice.START, null)) {
            document(files, "{\"id\":\"a\"}");
            files.continuation(Optional.of("T"), Double.NaN);
            for (int i = 0; i < 10_000; i++) document(files, "{\"id\":\"again-" + i + "\"}"); // some reach the file
            files.rewind();
            document(files, "{\"id\":\"b\"}");
            files.continuation(Optional.empty(), 100);
        }
        assertEquals("{\"id\":\"a\"}\n{\"id\":\"b\"}\n", Files.readString(tmp.resolve("slice-0001.jsonl")));
        assertEquals(2, documents.sum());
    }

    @Test
    void rotation_startsANewFileAtTheFirstContinuationPastTheLimit_andSavesTheCheckpointFirst() throws IOException {
        Checkpoint checkpoint = Checkpoint.load(tmp.resolve("checkpoint"), "key", 2);
        SliceFiles.Format format = new SliceFiles.Format(false, SliceFiles.Compression.NONE, 2, Long.MAX_VALUE);
        try (SliceFiles files = open(format, Checkpoint.Slice.START, checkpoint)) {
            document(files, "{\"id\":\"a\"}");
            files.continuation(Optional.of("T1"), 10);
            assertEquals(new Checkpoint.Slice(Checkpoint.State.TOKEN, 11, Optional.of("T1"), 0), checkpoint.slice(1));
            document(files, "{\"id\":\"b\"}");
            document(files, "{\"id\":\"c\"}");
            files.continuation(Optional.of("T2"), 20);
            assertEquals(new Checkpoint.Slice(Checkpoint.State.TOKEN, 0, Optional.of("T2"), 1), checkpoint.slice(1));
            assertEquals(List.of("slice 1 token 0 T2", "file 1 1"), Files.readAllLines(tmp.resolve("checkpoint")).subList(4, 6));
            document(files, "{\"id\":\"d\"}");
            files.continuation(Optional.empty(), 100);
        }
        assertEquals(List.of("slice-0001-000000.jsonl", "slice-0001-000001.jsonl"), names());
        assertEquals("{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"c\"}\n", Files.readString(tmp.resolve("slice-0001-000000.jsonl")));
        assertEquals("{\"id\":\"d\"}\n", Files.readString(tmp.resolve("slice-0001-000001.jsonl")));
    }

    @Test
    void resume_completesTheRenameOfEarlierFiles() throws IOException {
        SliceFiles.Format format = new SliceFiles.Format(false, SliceFiles.Compression.NONE, 1, Long.MAX_VALUE);
        Files.writeString(tmp.resolve("slice-0001-000000.jsonl.partial"), "{\"id\":\"a\"}\n");
        try (SliceFiles files = open(format, new Checkpoint.Slice(Checkpoint.State.TOKEN, 0, Optional.of("T"), 1), null)) {
            document(files, "{\"id\":\"b\"}");
            files.continuation(Optional.empty(), 100);
        }
        assertEquals(List.of("slice-0001-000000.jsonl", "slice-0001-000001.jsonl"), names());
    }

    @Test
    void array_isOneValidJsonArrayPerFile() throws IOException {
        SliceFiles.Format format = new SliceFiles.Format(true, SliceFiles.Compression.NONE, 2, Long.MAX_VALUE);
        try (SliceFiles files = open(format, Checkpoint.Slice.START, null)) {
            for (String id : List.of("a", "b", "c")) document(files, "{\"id\":\"" + id + "\"}");
            files.continuation(Optional.of("T"), 50);
            files.continuation(Optional.empty(), 100);
        }
        assertEquals(List.of("slice-0001-000000.json"), names()); // the second file would be empty: none is left
        assertEquals("[\n{\"id\":\"a\"}\n,{\"id\":\"b\"}\n,{\"id\":\"c\"}\n]\n", Files.readString(tmp.resolve("slice-0001-000000.json")));
    }

    @ParameterizedTest
    @EnumSource(value = SliceFiles.Compression.class, names = { "GZIP", "ZSTD" })
    void compressed_resumedAtContinuations_isOneValidStreamOfEveryDocumentOnce(SliceFiles.Compression compression) throws IOException {
        SliceFiles.Format format = new SliceFiles.Format(false, compression, Long.MAX_VALUE, Long.MAX_VALUE);
        Checkpoint checkpoint = Checkpoint.load(tmp.resolve("checkpoint"), "key", 2);
        try (SliceFiles files = open(format, Checkpoint.Slice.START, checkpoint)) {
            document(files, "{\"id\":\"a\"}");
            files.continuation(Optional.of("T"), 50);
            document(files, "{\"id\":\"lost\"}");
        } // stopped: what came after the token is in the partial file
        try (SliceFiles files = open(format, checkpoint.slice(1), checkpoint)) {
            document(files, "{\"id\":\"b\"}");
            files.continuation(Optional.of("U"), 75);
            document(files, "{\"id\":\"c\"}");
            files.continuation(Optional.empty(), 100);
        }
        assertEquals(List.of("slice-0001.jsonl" + compression.extension), names());
        assertEquals("{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"c\"}\n", decompressed(compression, "slice-0001.jsonl" + compression.extension));
    }

    @ParameterizedTest
    @EnumSource(value = SliceFiles.Compression.class, names = { "GZIP", "ZSTD" })
    void compressed_withoutDocuments_isAValidEmptyFile(SliceFiles.Compression compression) throws IOException {
        SliceFiles.Format format = new SliceFiles.Format(false, compression, Long.MAX_VALUE, Long.MAX_VALUE);
        try (SliceFiles files = open(format, Checkpoint.Slice.START, null)) {
            files.continuation(Optional.empty(), 100);
        }
        assertTrue(Files.size(tmp.resolve("slice-0001.jsonl" + compression.extension)) > 0);
        assertEquals("", decompressed(compression, "slice-0001.jsonl" + compression.extension));
    }

    /** The whole of file {@code name}, read back as {@code compression}'s library reads it. */
    private String decompressed(SliceFiles.Compression compression, String name) throws IOException {
        InputStream file = Files.newInputStream(tmp.resolve(name));
        try (InputStream in = compression == SliceFiles.Compression.GZIP ? new GZIPInputStream(file) : new ZstdInputStream(file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void zstd_rotatedFiles_areEachAValidZstdFile() throws IOException {
        SliceFiles.Format format = new SliceFiles.Format(true, SliceFiles.Compression.ZSTD, 1, Long.MAX_VALUE);
        try (SliceFiles files = open(format, Checkpoint.Slice.START, null)) {
            document(files, "{\"id\":\"a\"}");
            files.continuation(Optional.of("T"), 50);
            document(files, "{\"id\":\"b\"}");
            files.continuation(Optional.empty(), 100);
        }
        assertEquals(List.of("slice-0001-000000.json.zst", "slice-0001-000001.json.zst"), names());
        for (String id : List.of("a", "b"))
            try (InputStream in = new ZstdInputStream(Files.newInputStream(tmp.resolve("slice-0001-00000" + (id.equals("a") ? 0 : 1) + ".json.zst")))) {
                assertEquals("[\n{\"id\":\"" + id + "\"}\n]\n", new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
    }

}
