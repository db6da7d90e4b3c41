package io.sluice.document;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** MD5 of UTF-8 text, the hash Vespa uses for locations and global ids. */
final class Md5 {

    /** One digest per thread: looking MD5 up among the security providers costs more than hashing an id. */
    private static final ThreadLocal<MessageDigest> DIGESTS = ThreadLocal.withInitial(Md5::newDigest);

    private Md5() {
    }

    static byte[] of(String text) {
        return DIGESTS.get().digest(text.getBytes(StandardCharsets.UTF_8)); // digest() also resets it
    }

    private static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("MD5");
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
