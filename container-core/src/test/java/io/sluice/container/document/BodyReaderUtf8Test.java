package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BodyReaderUtf8Test {

    @Test
    void asciiPrefix_findsTheFirstNonAsciiByte_atEveryPositionAndLength() {
        for (int length = 0; length <= 40; length++) {
            byte[] bytes = new byte[length + 8]; // room past the length, which must never count
            Arrays.fill(bytes, (byte) 'a');
            bytes[length] = (byte) 0xc3; // just past the length
            assertEquals(length, BodyReader.asciiPrefix(bytes, length), "all ASCII, length " + length);
            for (int at = 0; at < length; at++) {
                byte[] marked = bytes.clone();
                marked[at] = (byte) 0x80;
                assertEquals(at, BodyReader.asciiPrefix(marked, length), "non-ASCII at " + at + " of " + length);
            }
        }
    }

    @Test
    void checkUtf8_rejectsAnInvalidByteAnywhere_andNamesItsOffset() {
        for (int at = 0; at < 24; at++) {
            byte[] bytes = "{\"fields\":{\"title\":\"plain ascii text here\"}}".getBytes(StandardCharsets.US_ASCII);
            bytes[at] = (byte) 0xff;
            int offset = at;
            HttpStatusException e = assertThrows(HttpStatusException.class,
                                                 () -> BodyReader.checkUtf8(bytes, bytes.length));
            assertEquals(400, e.status());
            assertTrue(e.getMessage().contains("invalid byte 0xff at offset " + offset), e.getMessage());
        }
    }

    @Test
    void checkUtf8_acceptsMultiByteCharactersAfterAnAsciiRun() {
        byte[] bytes = "{\"fields\":{\"title\":\"Blåbærsyltetøy – 漢字 😀\"}}".getBytes(StandardCharsets.UTF_8);
        BodyReader.checkUtf8(bytes, bytes.length);
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 4);
        truncated[truncated.length - 1] = (byte) 0xf0; // the start of a four-byte character, cut off
        assertThrows(HttpStatusException.class, () -> BodyReader.checkUtf8(truncated, truncated.length));
    }

}
