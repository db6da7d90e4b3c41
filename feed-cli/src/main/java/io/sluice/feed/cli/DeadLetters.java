package io.sluice.feed.cli;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.sluice.feed.FeedOperation;
import io.sluice.feed.FeedReader;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.OptionalInt;

/**
 * The {@code --failures} file: every operation that finally failed, one JSON line each, exactly as it was read (line
 * breaks between its tokens turned into spaces), with a side field {@code "failure":{"status":…,"message":…}} added
 * before its closing brace; status is null when no response failed it (connection lost, timeout). The feed reader skips
 * that field, so the file can be fed again as it is. Each line is flushed as it is written: a run that is killed keeps
 * the failures it reported, which matters because a checkpoint counts them as done.
 */
final class DeadLetters implements AutoCloseable {

    private final Path file;
    private final OutputStream out;

    private DeadLetters(Path file, OutputStream out) {
        this.file = file;
        this.out = out;
    }

    /** Opens the file; truncates it unless {@code append} (a resumed feed keeps the failures of the runs before). */
    static DeadLetters open(Path file, boolean append) {
        try {
            return new DeadLetters(file, new BufferedOutputStream(Files.newOutputStream(
                    file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    append ? StandardOpenOption.APPEND : StandardOpenOption.TRUNCATE_EXISTING)));
        }
        catch (IOException e) {
            throw new UsageException("Option '--failures': cannot write file '" + file + "': " + e.getMessage());
        }
    }

    Path file() { return file; }

    synchronized void write(FeedOperation operation, OptionalInt status, String message) {
        try {
            out.write(line(operation.source(), status, message));
            out.flush();
        }
        catch (IOException e) {
            throw new UncheckedIOException("Failed writing to '" + file + "'", e);
        }
    }

    /** The source object on one line, with the failure field added before its closing brace, and a newline. */
    static byte[] line(byte[] source, OptionalInt status, String message) {
        int end = source.length;
        while (end > 0 && source[end - 1] != '}') end--;
        if (end == 0) throw new IllegalArgumentException("Not a JSON object: '" + new String(source, StandardCharsets.UTF_8) + "'");
        int last = end - 1; // the closing brace
        int body = last;
        while (body > 0 && isWhitespace(source[body - 1])) body--;
        byte[] field = (",\"" + FeedReader.FAILURE_KEY + "\":{\"status\":" + (status.isPresent() ? status.getAsInt() : "null") +
                        ",\"message\":\"" + new String(JsonStringEncoder.getInstance().quoteAsString(message)) + "\"}}\n")
                .getBytes(StandardCharsets.UTF_8);
        byte[] line = new byte[body + field.length];
        for (int i = 0; i < body; i++) line[i] = source[i] == '\n' || source[i] == '\r' ? (byte) ' ' : source[i];
        System.arraycopy(field, 0, line, body, field.length);
        return line;
    }

    private static boolean isWhitespace(byte b) {
        return b == ' ' || b == '\n' || b == '\r' || b == '\t';
    }

    @Override public synchronized void close() {
        try {
            out.close();
        }
        catch (IOException e) {
            throw new UncheckedIOException("Failed closing '" + file + "'", e);
        }
    }

}
