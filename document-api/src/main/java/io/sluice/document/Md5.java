package io.sluice.document;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** MD5 of UTF-8 text, the hash Vespa uses for locations and global ids. */
final class Md5 {

    private Md5() {
    }

    static byte[] of(String text) {
        try {
            return MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform must provide MD5", e);
        }
    }

    /** Reads eight bytes from {@code offset} as a little-endian 64-bit value. */
    static long littleEndianLong(byte[] bytes, int offset) {
        long value = 0;
        for (int i = 0; i < 8; i++) {
            value |= (bytes[offset + i] & 0xFFL) << (8 * i);
        }
        return value;
    }

}
