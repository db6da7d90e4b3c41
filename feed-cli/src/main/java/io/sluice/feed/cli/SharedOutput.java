package io.sluice.feed.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * An output that slices share (standard output), taking whole blocks of lines at a time. As JSON lines, a block is
 * written as it is. As a JSON array ({@code --make-feed}), every document in a block comes as {@code ,document\n}, and
 * the comma before the output's first document is dropped here, so the whole is {@code [\n…\n,…\n]\n}.
 */
final class SharedOutput {

    private final OutputStream out;
    private final boolean array;
    private boolean started = false;

    SharedOutput(OutputStream out, boolean array) {
        this.out = out;
        this.array = array;
    }

    boolean array() { return array; }

    synchronized void begin() throws IOException {
        if (array) out.write("[\n".getBytes(StandardCharsets.US_ASCII));
    }

    /** Writes whole documents, each as a line (with its leading comma in an array). */
    synchronized void write(byte[] bytes, int offset, int length) throws IOException {
        if (length == 0) return;
        if (array && ! started) {
            offset++;
            length--;
        }
        started = true;
        out.write(bytes, offset, length);
    }

    synchronized void flush() throws IOException { out.flush(); }

    /** Closes the array, if this is one, and flushes. */
    synchronized void end() throws IOException {
        if (array) out.write("]\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

}
