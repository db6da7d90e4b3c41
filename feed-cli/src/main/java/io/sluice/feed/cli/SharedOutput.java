package io.sluice.feed.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
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
        checkFailed();
        if (array && ! started) {
            offset++;
            length--;
        }
        started = true;
        try {
            out.write(bytes, offset, length);
        }
        catch (IOException e) {
            throw failed(e);
        }
    }

    synchronized void flush() throws IOException {
        checkFailed();
        try {
            out.flush();
        }
        catch (IOException e) {
            throw failed(e);
        }
    }

    /** Closes the array, if this is one, and flushes. */
    synchronized void end() throws IOException {
        checkFailed();
        try {
            if (array) out.write("]\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
        catch (IOException e) {
            throw failed(e);
        }
    }

    /** Whether writing to the output has failed: then every slice's next write fails the same way. */
    synchronized boolean hasFailed() { return failure != null; }

    private IOException failure;

    private IOException failed(IOException e) {
        failure = e;
        return e;
    }

    private void checkFailed() throws IOException {
        if (failure != null) throw new IOException(failure.getMessage(), failure);
    }

    /**
     * {@code out} as a stream whose writes fail when {@code out}'s do: a PrintStream (standard output) only notes its
     * errors, so a dump into {@code | head} went on to the end, and one into a full disk lost its output and exited 0.
     */
    static OutputStream failing(PrintStream out) {
        return new OutputStream() {
            @Override public void write(int b) throws IOException {
                out.write(b);
                check();
            }
            @Override public void write(byte[] bytes, int offset, int length) throws IOException {
                out.write(bytes, offset, length);
                check();
            }
            @Override public void flush() throws IOException {
                out.flush();
                check();
            }
            private void check() throws IOException {
                if (out.checkError()) throw new IOException("Failed writing output: it was closed, or could not be written (out of space?)");
            }
        };
    }

}
