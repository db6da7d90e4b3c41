package io.sluice.feed;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class VisitResponseTest {

    /** Documents as text, and continuations as "token percent", in order. */
    private static final class Recorded implements VisitSink {
        final List<String> events = new ArrayList<>();
        @Override public void document(byte[] json, int offset, int length) {
            events.add(new String(json, offset, length, StandardCharsets.UTF_8));
        }
        @Override public void continuation(Optional<String> token, double percentFinished) {
            events.add(token.orElse("(done)") + " " + percentFinished);
        }
    }

    /**
     * Hands {@code text} to {@code response} in chunks of at most {@code chunk} bytes, as the network delivers them,
     * alternating heap and direct buffers, and ends it.
     */
    private static void accept(VisitResponse response, String text, int chunk) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        for (int offset = 0, n = 0; offset < bytes.length; offset += chunk, n++) {
            int length = Math.min(chunk, bytes.length - offset);
            ByteBuffer buffer = n % 2 == 0 ? ByteBuffer.wrap(bytes, offset, length) : ByteBuffer.allocateDirect(length).put(bytes, offset, length).flip();
            response.accept(buffer);
            assertFalse(buffer.hasRemaining());
        }
        response.end();
    }

    private static List<String> readLines(String text, int chunk) throws IOException {
        Recorded sink = new Recorded();
        accept(new VisitResponse(sink), text, chunk);
        return sink.events;
    }

    @Test
    void readLines_putLines_deliveredAsIdLinesWithTheirBytesUnchanged() throws IOException {
        assertEquals(List.of("{\"id\":\"id:ns:t::a\",\"fields\":{\"f\":\"æ\\n ø\"}}", "{\"id\":\"id:ns:t::b\",\"fields\":{}}"),
                     readLines("{\"put\":\"id:ns:t::a\",\"fields\":{\"f\":\"æ\\n ø\"}}\n{\"put\":\"id:ns:t::b\",\"fields\":{}}\n", 1 << 16));
    }

    @Test
    void readLines_linesCutAtEveryByte_deliveredWhole() throws IOException {
        String lines = "{\"put\":\"id:ns:t::a\",\"fields\":{\"x\":1}}\n{\"continuation\":{\"token\":\"T1\",\"percentFinished\":50.0}}\n" +
                       "{\"put\":\"id:ns:t::b\",\"fields\":{\"x\":2}}\n";
        List<String> expected = List.of("{\"id\":\"id:ns:t::a\",\"fields\":{\"x\":1}}", "T1 50.0", "{\"id\":\"id:ns:t::b\",\"fields\":{\"x\":2}}");
        for (int chunk = 1; chunk <= 9; chunk++) assertEquals(expected, readLines(lines, chunk), "reads of " + chunk + " bytes");
    }

    @Test
    void readLines_lineLongerThanTheBuffer_deliveredWhole() throws IOException {
        String value = "v".repeat(300_000);
        assertEquals(List.of("{\"id\":\"id:ns:t::a\",\"fields\":{\"f\":\"" + value + "\"}}", "(done) 100.0"),
                     readLines("{\"put\":\"id:ns:t::a\",\"fields\":{\"f\":\"" + value + "\"}}\n" +
                               "{\"continuation\":{\"percentFinished\":100.0}}\n", 4096));
    }

    @Test
    void readLines_manyLinesAcrossBufferRefills_deliveredWholeAndInOrder() throws IOException {
        StringBuilder text = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 3000; i++) { // ~250 KB: the 64 KiB buffer fills with a line unfinished, several times
            String fields = "{\"f\":\"" + "x".repeat(i % 97) + "\"}";
            text.append("{\"put\":\"id:ns:t::").append(i).append("\",\"fields\":").append(fields).append("}\n");
            expected.add("{\"id\":\"id:ns:t::" + i + "\",\"fields\":" + fields + "}");
        }
        for (int chunk : new int[] { 4099, 65536, 65537, 100_000 })
            assertEquals(expected, readLines(text.toString(), chunk), "chunks of " + chunk);
    }

    @Test
    void readLines_carriageReturnsAndLastLineWithoutBreak_areHandled() throws IOException {
        assertEquals(List.of("{\"id\":\"id:ns:t::a\",\"fields\":{}}", "(done) 100.0"),
                     readLines("{\"put\":\"id:ns:t::a\",\"fields\":{}}\r\n\r\n{\"continuation\":{\"percentFinished\":100.0}}", 7));
    }

    @Test
    void readLines_removesStatsAndUnknownLines_areSkipped() throws IOException {
        assertEquals(List.of("(done) 100.0"),
                     readLines("{\"remove\":\"id:ns:t::a\"}\n{\"sessionStats\":{\"documentCount\":0}}\n{\"future\":1}\n" +
                               "{\"continuation\":{\"percentFinished\":100.0}}\n", 1 << 16));
    }

    @Test
    void readLines_errorMessage_isTheResponsesError() throws IOException {
        VisitResponse response = new VisitResponse(new Recorded());
        accept(response, "{\"message\":{\"text\":\"boom\",\"severity\":\"error\"}}\n", 1 << 16);
        assertEquals("boom", response.error);
        assertFalse(response.sawContinuation);
    }

    @Test
    void readLines_finalContinuation_marksTheSliceFinished() throws IOException {
        VisitResponse response = new VisitResponse(new Recorded());
        accept(response, "{\"continuation\":{\"percentFinished\":100.0}}\n", 1 << 16);
        assertTrue(response.finished);
    }

    @Test
    void indexOfNewline_findsTheFirstLineBreak_atEveryPositionAndAlignment() {
        Random random = new Random(42);
        byte[] noise = { 0, 1, 9, 11, 0x7f, (byte) 0x80, (byte) 0x8a, (byte) 0xff, '{', '"' }; // neighbours of '\n' and high bytes
        for (int length = 0; length <= 40; length++) {
            for (int trial = 0; trial < 200; trial++) {
                byte[] bytes = new byte[length + 3];
                for (int i = 0; i < bytes.length; i++) bytes[i] = noise[random.nextInt(noise.length)];
                int newlines = random.nextInt(3);
                for (int n = 0; n < newlines && length > 0; n++) bytes[3 + random.nextInt(length)] = '\n';
                int expected = -1;
                for (int i = 3; i < 3 + length; i++) if (bytes[i] == '\n') { expected = i; break; }
                assertEquals(expected, VisitResponse.indexOfNewline(bytes, 3, 3 + length), () -> java.util.Arrays.toString(bytes));
            }
        }
    }

}
