package io.sluice.feed;

import java.util.Arrays;
import java.util.zip.CRC32;
import java.util.zip.Deflater;

/** gzip with a reused {@link Deflater} per thread: one output array per body, no streams. */
final class Gzip {

    private static final byte[] HEADER = { 0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, (byte) 0xff };
    private static final ThreadLocal<Deflater> deflaters = ThreadLocal.withInitial(() -> new Deflater(Deflater.BEST_SPEED, true));

    private Gzip() { }

    static byte[] compress(byte[] data) {
        Deflater deflater = deflaters.get();
        deflater.reset();
        deflater.setInput(data);
        deflater.finish();
        byte[] out = new byte[HEADER.length + data.length / 2 + 64];
        System.arraycopy(HEADER, 0, out, 0, HEADER.length);
        int length = HEADER.length;
        while ( ! deflater.finished()) {
            if (length == out.length) out = Arrays.copyOf(out, out.length * 2);
            length += deflater.deflate(out, length, out.length - length);
        }
        CRC32 crc = new CRC32();
        crc.update(data);
        if (out.length < length + 8) out = Arrays.copyOf(out, length + 8);
        writeIntLE(out, length, (int) crc.getValue());
        writeIntLE(out, length + 4, data.length);
        return Arrays.copyOf(out, length + 8);
    }

    private static void writeIntLE(byte[] out, int offset, int value) {
        out[offset] = (byte) value;
        out[offset + 1] = (byte) (value >> 8);
        out[offset + 2] = (byte) (value >> 16);
        out[offset + 3] = (byte) (value >> 24);
    }

}
