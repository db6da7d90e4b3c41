package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class GzipInflationTest {

    static byte[] gzip(byte[] plain) {
        var bytes = new ByteArrayOutputStream();
        try (var out = new GZIPOutputStream(bytes)) {
            out.write(plain);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Inflates {@code compressed} fed in pieces of {@code piece} bytes. */
    private static byte[] inflate(byte[] compressed, int piece) {
        var inflation = new GzipInflation();
        var out = new ByteArrayOutputStream();
        for (int i = 0; i < compressed.length; i += piece)
            inflation.feed(ByteBuffer.wrap(compressed, i, Math.min(piece, compressed.length - i)).slice(), out::write);
        inflation.finish();
        return out.toByteArray();
    }

    private static String failure(byte[] compressed) {
        return assertThrows(HttpStatusException.class, () -> inflate(compressed, 7)).getMessage();
    }

    private static final byte[] TEXT = "{\"fields\":{\"title\":\"hello world\"}}".repeat(100).getBytes(StandardCharsets.UTF_8);

    @Test
    void wholeBody_inflates() {
        assertArrayEquals(TEXT, inflate(gzip(TEXT), Integer.MAX_VALUE));
    }

    @Test
    void bodyInOneBytePieces_inflates() {
        assertArrayEquals(TEXT, inflate(gzip(TEXT), 1));
    }

    @Test
    void concatenatedMembers_inflateToBothTexts() {
        byte[] one = gzip("hello ".getBytes(StandardCharsets.UTF_8));
        byte[] two = gzip("world".getBytes(StandardCharsets.UTF_8));
        byte[] both = Arrays.copyOf(one, one.length + two.length);
        System.arraycopy(two, 0, both, one.length, two.length);
        assertEquals("hello world", new String(inflate(both, 3), StandardCharsets.UTF_8));
    }

    @Test
    void headerWithFileNameAndComment_isSkipped() {
        byte[] plain = gzip(TEXT);
        byte[] named = new byte[plain.length + 8];
        System.arraycopy(plain, 0, named, 0, 10);
        named[3] = 8 | 16; // FNAME | FCOMMENT
        System.arraycopy(new byte[] { 'a', '.', 'j', 's', 0, 'h', 'i', 0 }, 0, named, 10, 8);
        System.arraycopy(plain, 10, named, 18, plain.length - 10);
        assertArrayEquals(TEXT, inflate(named, 5));
    }

    @Test
    void flippedDataBit_isRefused() {
        byte[] stored = gzip("hello world".getBytes(StandardCharsets.UTF_8));
        byte[] corrupt = stored.clone();
        corrupt[12] ^= 0x01;
        String message = failure(corrupt);
        assertEquals(true, message.startsWith("Invalid gzip request body: "), message);
    }

    @Test
    void wrongCrc_isRefused() {
        byte[] corrupt = gzip(TEXT);
        corrupt[corrupt.length - 8] ^= 0x01;
        assertEquals("Invalid gzip request body: CRC-32 mismatch: the data is corrupt", failure(corrupt));
    }

    @Test
    void wrongLength_isRefused() {
        byte[] corrupt = gzip(TEXT);
        corrupt[corrupt.length - 4] ^= 0x01;
        assertEquals("Invalid gzip request body: length mismatch: trailer says " + (TEXT.length ^ 1) + " bytes, inflated "
                     + TEXT.length, failure(corrupt));
    }

    @Test
    void truncatedBody_isRefused() {
        byte[] whole = gzip(TEXT);
        assertEquals("Invalid gzip request body: body ends inside the gzip stream (truncated)",
                     failure(Arrays.copyOf(whole, whole.length - 3)));
        assertEquals("Invalid gzip request body: body ends inside the gzip stream (truncated)",
                     failure(Arrays.copyOf(whole, whole.length / 2)));
    }

    @Test
    void plainJson_isRefusedAsNotGzip() {
        assertEquals("Invalid gzip request body: not gzip data (no gzip magic number)", failure(TEXT));
    }

    @Test
    void emptyBody_isRefused() {
        assertEquals("Invalid gzip request body: empty body", failure(new byte[0]));
    }

    @Test
    void outputRefusal_stopsInflation() {
        var inflation = new GzipInflation();
        var refused = new HttpStatusException(413, "too large");
        HttpStatusException thrown = assertThrows(HttpStatusException.class, () -> inflation.feed(ByteBuffer.wrap(gzip(TEXT)),
                                                                                                   (bytes, offset, length) -> { throw refused; }));
        assertEquals(refused, thrown);
        inflation.abandon();
    }

}
