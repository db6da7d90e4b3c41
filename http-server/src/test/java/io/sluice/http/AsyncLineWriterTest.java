package io.sluice.http;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

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

}
