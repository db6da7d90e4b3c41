package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.eclipse.jetty.http.HttpStatus;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.zip.CRC32;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Inflates a gzip body (RFC 1952) as its chunks arrive, checking what Jetty's request inflation does not: every
 * member's header, its CRC-32 and length trailer, and that the body does not end inside a member. Concatenated members
 * are allowed, as {@code gunzip} allows them. Every problem is a 400 naming it. Not thread-safe: one per body.
 */
final class GzipInflation {

    /** Receives inflated bytes; may throw {@link HttpStatusException} to stop (e.g. 413). */
    interface Output {
        void write(byte[] bytes, int offset, int length);
    }

    private static final int FHCRC = 2, FEXTRA = 4, FNAME = 8, FCOMMENT = 16, RESERVED = 0xe0;
    private static final int MAX_HEADER = 64 * 1024;

    private enum State { HEADER, DATA, TRAILER, END }

    private final Inflater inflater = new Inflater(true);
    private final CRC32 crc = new CRC32();
    private final byte[] scratch = new byte[16 * 1024];
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream(); // header or trailer bytes so far
    private State state = State.HEADER;
    private long memberSize = 0;

    /** Inflates all of {@code input} to {@code output}. */
    void feed(ByteBuffer input, Output output) {
        while (input.hasRemaining()) {
            switch (state) {
                case END:
                    state = State.HEADER; // another member follows
                    break;
                case HEADER:
                    pending.write(input.get());
                    if (headerComplete()) {
                        pending.reset();
                        inflater.reset();
                        crc.reset();
                        memberSize = 0;
                        state = State.DATA;
                    }
                    break;
                case DATA:
                    inflate(input, output);
                    break;
                case TRAILER:
                    pending.write(input.get());
                    if (pending.size() == 8) {
                        checkTrailer(pending.toByteArray());
                        pending.reset();
                        state = State.END;
                    }
                    break;
                default:
                    throw new IllegalStateException("Unknown state " + state);
            }
        }
    }

    /** Checks that the body ended after a complete member; frees the inflater either way. */
    void finish() {
        inflater.end();
        if (state != State.END)
            throw invalid(state == State.HEADER && pending.size() == 0 && memberSize == 0
                          ? "empty body" : "body ends inside the gzip stream (truncated)");
    }

    /** Frees the inflater of a body given up on. */
    void abandon() {
        inflater.end();
    }

    private void inflate(ByteBuffer input, Output output) {
        inflater.setInput(input);
        try {
            while (true) {
                int inflated = inflater.inflate(scratch);
                if (inflated > 0) {
                    crc.update(scratch, 0, inflated);
                    memberSize += inflated;
                    output.write(scratch, 0, inflated);
                }
                if (inflater.finished()) {
                    state = State.TRAILER;
                    return;
                }
                if (inflater.needsDictionary())
                    throw invalid("deflate stream needs a preset dictionary");
                if (inflated == 0 && inflater.needsInput())
                    return;
            }
        }
        catch (DataFormatException e) {
            throw invalid("corrupt deflate data (" + e.getMessage() + ")");
        }
    }

    /** Whether {@code pending} holds a whole, valid member header. */
    private boolean headerComplete() {
        byte[] header = pending.toByteArray();
        if (header.length > MAX_HEADER)
            throw invalid("gzip header longer than " + MAX_HEADER + " bytes");
        if (header.length < 10)
            return false;
        if ((header[0] & 0xff) != 0x1f || (header[1] & 0xff) != 0x8b)
            throw invalid("not gzip data (no gzip magic number)");
        if (header[2] != 8)
            throw invalid("unsupported gzip compression method " + header[2]);
        int flags = header[3] & 0xff;
        if ((flags & RESERVED) != 0)
            throw invalid("reserved gzip header flags set");
        int position = 10;
        if ((flags & FEXTRA) != 0) {
            if (header.length < position + 2)
                return false;
            position += 2 + ((header[position] & 0xff) | (header[position + 1] & 0xff) << 8);
        }
        if ((flags & FNAME) != 0 && (position = afterZero(header, position)) < 0)
            return false;
        if ((flags & FCOMMENT) != 0 && (position = afterZero(header, position)) < 0)
            return false;
        if ((flags & FHCRC) != 0)
            position += 2;
        return header.length == position;
    }

    /** The index after the zero byte at or after {@code from}, or -1 if there is none yet (or it is past the end). */
    private static int afterZero(byte[] header, int from) {
        for (int i = from; i < header.length; i++)
            if (header[i] == 0)
                return i + 1;
        return -1;
    }

    private void checkTrailer(byte[] trailer) {
        long expectedCrc = littleEndian(trailer, 0);
        long expectedSize = littleEndian(trailer, 4);
        if (expectedCrc != crc.getValue())
            throw invalid("CRC-32 mismatch: the data is corrupt");
        if (expectedSize != (memberSize & 0xffffffffL))
            throw invalid("length mismatch: trailer says " + expectedSize + " bytes, inflated " + memberSize);
    }

    private static long littleEndian(byte[] bytes, int offset) {
        return (bytes[offset] & 0xffL) | (bytes[offset + 1] & 0xffL) << 8 | (bytes[offset + 2] & 0xffL) << 16
               | (bytes[offset + 3] & 0xffL) << 24;
    }

    private static HttpStatusException invalid(String problem) {
        return new HttpStatusException(HttpStatus.BAD_REQUEST_400, "Invalid gzip request body: " + problem);
    }

}
