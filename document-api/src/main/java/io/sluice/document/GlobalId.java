package io.sluice.document;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * The 12-byte global id Vespa derives from a document id: the low 32 bits of the {@linkplain DocumentId#location()
 * location}, little-endian, followed by bytes 4..12 of the MD5 of the canonical id string. Its last eight bytes feed
 * bucket bits 32..57, so documents with one location still spread over many buckets.
 */
public final class GlobalId {

    /** Size of a global id in bytes. */
    public static final int LENGTH = 12;

    private final byte[] bytes;

    private GlobalId(byte[] bytes) {
        this.bytes = bytes;
    }

    /** The global id of {@code id}. */
    public static GlobalId of(DocumentId id) {
        byte[] md5 = Md5.of(id.toString());
        long location = id.location();
        byte[] bytes = new byte[LENGTH];
        for (int i = 0; i < 4; i++) {
            bytes[i] = (byte) (location >>> (8 * i));
        }
        System.arraycopy(md5, 4, bytes, 4, 8);
        return new GlobalId(bytes);
    }

    /** A global id from its raw bytes; {@code bytes} must hold exactly {@value #LENGTH} bytes. */
    public static GlobalId ofBytes(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("A global id has " + LENGTH + " bytes, not " + bytes.length);
        }
        return new GlobalId(bytes.clone());
    }

    /** A copy of the 12 bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    /** Bytes 4..12 read as a little-endian 64-bit value: the source of bucket bits 32..57. */
    long hashBits() {
        return Md5.littleEndianLong(bytes, 4);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof GlobalId && Arrays.equals(((GlobalId) other).bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** Lower-case hex of the 12 bytes, e.g. {@code GlobalId(0102...)}. */
    @Override
    public String toString() {
        return "GlobalId(" + HexFormat.of().formatHex(bytes) + ")";
    }

}
