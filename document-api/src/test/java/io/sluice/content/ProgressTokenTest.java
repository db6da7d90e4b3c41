package io.sluice.content;

import io.sluice.document.DocumentId;
import io.sluice.document.Slice;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.stream.IntStream;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProgressTokenTest {

    private static final ProgressToken TOKEN = ProgressToken.of(16, Slice.of(4, 3), BucketSpace.GLOBAL,
                                                                DocumentKey.of(DocumentId.of("id:ns:music::ö-1")));

    @Test
    void parse_encoded_roundTrips() {
        assertEquals(TOKEN, ProgressToken.parse(TOKEN.encoded()));
    }

    @Test
    void parse_bucketStart_roundTrips() {
        ProgressToken token = ProgressToken.of(8, Slice.ALL, BucketSpace.DEFAULT, DocumentKey.bucketStart(-1L));
        assertEquals(token, ProgressToken.parse(token.encoded()));
    }

    @Test
    void encoded_isUrlSafeBase64WithPadding() {
        String encoded = TOKEN.encoded();
        assertTrue(encoded.matches("[A-Za-z0-9_-]+=*"), encoded);
        assertEquals(0, encoded.length() % 4);
    }

    @Test
    void parse_standardBase64_isAccepted() {
        ProgressToken token = IntStream.range(0, 1000)
                .mapToObj(i -> ProgressToken.of(16, Slice.ALL, BucketSpace.DEFAULT, DocumentKey.bucketStart(i * 977L)))
                .filter(candidate -> candidate.encoded().contains("-") || candidate.encoded().contains("_"))
                .findFirst().orElseThrow();
        String standard = Base64.getEncoder().encodeToString(Base64.getUrlDecoder().decode(token.encoded()));
        assertTrue(standard.contains("+") || standard.contains("/"), standard);
        assertEquals(token, ProgressToken.parse(standard));
    }

    @Test
    void parse_changedByte_failsChecksum() {
        byte[] bytes = Base64.getUrlDecoder().decode(TOKEN.encoded());
        bytes[12] ^= 1;
        InvalidProgressTokenException e = assertThrows(InvalidProgressTokenException.class,
                () -> ProgressToken.parse(Base64.getUrlEncoder().encodeToString(bytes)));
        assertTrue(e.getMessage().endsWith(": checksum mismatch"), e.getMessage());
    }

    @Test
    void parse_notBase64_namesToken() {
        InvalidProgressTokenException e = assertThrows(InvalidProgressTokenException.class,
                                                       () -> ProgressToken.parse("not a token!"));
        assertEquals("Invalid continuation token 'not a token!': not base64", e.getMessage());
    }

    @Test
    void parse_tooShort_fails() {
        InvalidProgressTokenException e = assertThrows(InvalidProgressTokenException.class,
                                                       () -> ProgressToken.parse("AAAA"));
        assertEquals("Invalid continuation token 'AAAA': too short", e.getMessage());
    }

    @Test
    void parse_empty_fails() {
        assertThrows(InvalidProgressTokenException.class, () -> ProgressToken.parse(""));
    }

    @Test
    void parse_unknownVersion_fails() {
        byte[] bytes = Base64.getUrlDecoder().decode(TOKEN.encoded());
        bytes[0] = 3;
        InvalidProgressTokenException e = assertThrows(InvalidProgressTokenException.class,
                () -> ProgressToken.parse(Base64.getUrlEncoder().encodeToString(withChecksum(bytes))));
        assertTrue(e.getMessage().endsWith(": unknown version 3"), e.getMessage());
    }

    @Test
    void encoded_isVersion2_andNotFromRoundRobinSlices() {
        assertEquals(2, Base64.getUrlDecoder().decode(TOKEN.encoded())[0]);
        assertFalse(ProgressToken.parse(TOKEN.encoded()).fromRoundRobinSlices());
    }

    @Test
    void parse_version1OfSeveralSlices_isFromRoundRobinSlices_otherwiseTheSame() {
        ProgressToken old = ProgressToken.parse(version1(TOKEN));
        assertTrue(old.fromRoundRobinSlices());
        assertEquals(TOKEN, old);
    }

    @Test
    void parse_version1OfOneSlice_isNotFromRoundRobinSlices() {
        ProgressToken whole = ProgressToken.of(16, Slice.ALL, BucketSpace.DEFAULT, DocumentKey.bucketStart(12345));
        ProgressToken old = ProgressToken.parse(version1(whole));
        assertFalse(old.fromRoundRobinSlices());
        assertEquals(whole, old);
    }

    /** {@code token} as the previous Sluice version encoded it: the same record with version byte 1. */
    static String version1(ProgressToken token) {
        byte[] bytes = Base64.getUrlDecoder().decode(token.encoded());
        bytes[0] = 1;
        return Base64.getUrlEncoder().encodeToString(withChecksum(bytes));
    }

    @Test
    void parse_sliceOutOfRangeWithValidChecksum_failsTyped() {
        byte[] bytes = Base64.getUrlDecoder().decode(TOKEN.encoded());
        ByteBuffer.wrap(bytes).putInt(7, 9); // sliceId 9 of 4
        InvalidProgressTokenException e = assertThrows(InvalidProgressTokenException.class,
                () -> ProgressToken.parse(Base64.getUrlEncoder().encodeToString(withChecksum(bytes))));
        assertTrue(e.getMessage().endsWith(": sliceId must be in [0, 4), but was 9"), e.getMessage());
    }

    @Test
    void parse_badIdLengthWithValidChecksum_failsTyped() {
        byte[] bytes = Base64.getUrlDecoder().decode(TOKEN.encoded());
        ByteBuffer.wrap(bytes).putInt(19, 1000);
        assertThrows(InvalidProgressTokenException.class,
                     () -> ProgressToken.parse(Base64.getUrlEncoder().encodeToString(withChecksum(bytes))));
    }

    @Test
    void parse_longToken_messageShowsOnlyItsStart() {
        String token = "A".repeat(200) + "!";
        InvalidProgressTokenException e = assertThrows(InvalidProgressTokenException.class,
                                                       () -> ProgressToken.parse(token));
        assertEquals("Invalid continuation token '" + "A".repeat(40) + "...': not base64", e.getMessage());
    }

    @Test
    void checkUsableFor_otherSlice_namesBoth() {
        InvalidProgressTokenException e = assertThrows(InvalidProgressTokenException.class,
                () -> TOKEN.checkUsableFor(Slice.of(4, 2), BucketSpace.GLOBAL, 16));
        assertEquals("Continuation token is for slice 3 of 4, not slice 2 of 4", e.getMessage());
    }

    @Test
    void checkUsableFor_otherSpace_namesBoth() {
        InvalidProgressTokenException e = assertThrows(InvalidProgressTokenException.class,
                () -> TOKEN.checkUsableFor(Slice.of(4, 3), BucketSpace.DEFAULT, 16));
        assertEquals("Continuation token is for bucket space 'global', not 'default'", e.getMessage());
    }

    @Test
    void checkUsableFor_otherDistributionBits_namesBoth() {
        InvalidProgressTokenException e = assertThrows(InvalidProgressTokenException.class,
                () -> TOKEN.checkUsableFor(Slice.of(4, 3), BucketSpace.GLOBAL, 8));
        assertEquals("Continuation token is for 16 distribution bits, but the store uses 8", e.getMessage());
    }

    @Test
    void checkUsableFor_sameVisit_passes() {
        TOKEN.checkUsableFor(Slice.of(4, 3), BucketSpace.GLOBAL, 16);
    }

    /** {@code bytes} with its last four bytes replaced by the CRC-32 of the rest. */
    private static byte[] withChecksum(byte[] bytes) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, bytes.length - 4);
        ByteBuffer.wrap(bytes).putInt(bytes.length - 4, (int) crc.getValue());
        return bytes;
    }

    @Test
    void encoded_idBytesAreUtf8() {
        byte[] bytes = Base64.getUrlDecoder().decode(TOKEN.encoded());
        String id = new String(bytes, 23, bytes.length - 27, StandardCharsets.UTF_8);
        assertEquals("id:ns:music::ö-1", id);
    }

}
