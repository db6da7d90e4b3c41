package io.sluice.http;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AsyncLineWriterTest {

    @Test
    void stop_writesEveryQueuedLine() throws Exception {
        var out = new ByteArrayOutputStream();
        var writer = new AsyncLineWriter(out, 16);
        writer.start();
        writer.write("{\"a\":1}");
        writer.write("{\"b\":2}");
        writer.stop();
        assertEquals("{\"a\":1}\n{\"b\":2}\n", out.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n"));
    }

    @Test
    void write_fullQueue_dropsAndCounts() {
        var writer = new AsyncLineWriter(new ByteArrayOutputStream(), 1);
        writer.write("kept");
        writer.write("dropped");
        assertEquals(1, writer.dropped());
    }

    @Test
    void reportDrops_countsOnlyDropsSinceTheLastReport() {
        var writer = new AsyncLineWriter(new ByteArrayOutputStream(), 1);
        writer.write("kept");
        writer.write("dropped");
        writer.write("dropped too");
        assertEquals(2, writer.reportDrops());
        assertEquals(0, writer.reportDrops());
        writer.write("dropped again");
        assertEquals(1, writer.reportDrops());
        assertEquals(3, writer.dropped());
    }

    @Test
    void start_missingDirectory_namesTheFile(@TempDir Path directory) {
        Path file = directory.resolve("missing").resolve("access.log");
        var writer = AsyncLineWriter.toFile(file, 16);
        var e = assertThrows(UncheckedIOException.class, writer::start);
        assertTrue(e.getMessage().startsWith("Cannot open the access log " + file + ": "), e.getMessage());
    }

    @Test
    void toFile_appendsLines(@TempDir Path directory) throws Exception {
        Path file = directory.resolve("access.log");
        Files.writeString(file, "old\n");
        var writer = AsyncLineWriter.toFile(file, 16);
        writer.start();
        writer.write("new");
        writer.stop();
        assertEquals(List.of("old", "new"), Files.readAllLines(file));
    }

}
