package io.sluice.feed;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * Reads one visit response, JSON lines or a JSON object, delivering its documents and continuation tokens to a sink,
 * and noting how it ended: finished, with a token to go on from, with an error, or broken off.
 */
final class VisitResponse {

    private static final JsonFactory json = new JsonFactory();
    private static final byte[] PUT_PREFIX = "{\"put\":".getBytes(StandardCharsets.US_ASCII);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0a0a0a0a0a0a0a0aL;
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;

    private final VisitSink sink;
    Optional<String> token = Optional.empty();
    boolean finished = false;
    boolean sawContinuation = false;
    String error;
    IOException sinkFailure;

    VisitResponse(VisitSink sink) { this.sink = sink; }

    // JSON lines not yet delivered: a line starts at start; no line break in [start, scanned); bytes up to filled
    private byte[] buffer = new byte[1 << 16];
    private int start = 0, scanned = 0, filled = 0;

    /**
     * Takes the next bytes of a JSON-lines response, delivering the lines they complete; what follows the last line
     * break is kept for the next bytes, or {@link #end}.
     */
    void accept(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            if (filled == buffer.length) makeRoom();
            int length = Math.min(bytes.remaining(), buffer.length - filled);
            bytes.get(buffer, filled, length);
            filled += length;
            for (int newline; (newline = indexOfNewline(buffer, scanned, filled)) >= 0; ) {
                line(buffer, start, newline - start);
                start = scanned = newline + 1;
            }
            scanned = filled;
            if (start == filled) start = scanned = filled = 0;
        }
    }

    /** The response ended: a last line without a line break is delivered too. */
    void end() throws IOException {
        if (filled > start) line(buffer, start, filled - start);
        start = scanned = filled = 0;
    }

    /** Room at the end of a full buffer: the unfinished line moves to its start, or, filling it, the buffer doubles. */
    private void makeRoom() {
        if (start == 0) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
            return;
        }
        System.arraycopy(buffer, start, buffer, 0, filled - start);
        filled -= start;
        scanned -= start;
        start = 0;
    }

    /**
     * The index of the first '\n' in {@code bytes[from, to)}, or -1. Eight bytes at a time: a dump's client spends
     * most of its time here, and this is four times faster than a byte loop, most of all under C1, which the CLI runs.
     */
    static int indexOfNewline(byte[] bytes, int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(bytes, i) ^ NEWLINES; // a zero byte where there was a '\n'
            long zeros = (word - ONES) & ~word & HIGH_BITS;     // high bit of the first zero byte (later ones may err)
            if (zeros != 0) return i + (Long.numberOfTrailingZeros(zeros) >>> 3);
        }
        for (; i < to; i++) if (bytes[i] == '\n') return i;
        return -1;
    }

    private void line(byte[] bytes, int offset, int length) throws IOException {
        while (length > 0 && (bytes[offset + length - 1] == '\r' || bytes[offset + length - 1] == ' ')) length--;
        if (length == 0) return;
        if (startsWith(bytes, offset, length, PUT_PREFIX)) { // {"put":… becomes {"id":…, in place
            bytes[offset + 1] = '{';
            bytes[offset + 2] = '"';
            bytes[offset + 3] = 'i';
            bytes[offset + 4] = 'd';
            bytes[offset + 5] = '"';
            bytes[offset + 6] = ':';
            deliver(bytes, offset + 1, length - 1);
            return;
        }
        try (JsonParser parser = json.createParser(bytes, offset, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT || parser.nextToken() != JsonToken.FIELD_NAME) return;
            String name = parser.currentName();
            parser.nextToken();
            switch (name) {
                case "put": case "id": deliver(renamed(parser)); break;
                case "continuation": continuation(parser); break;
                case "message": message(parser); break;
                default: // remove, sessionStats, sessionTrace, and anything newer: ignored
            }
        }
    }

    private byte[] renamed(JsonParser parser) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator generator = json.createGenerator(out)) {
            generator.writeStartObject();
            generator.writeFieldName("id");
            generator.copyCurrentStructure(parser);
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                generator.copyCurrentStructure(parser);
            }
            generator.writeEndObject();
        }
        return out.toByteArray();
    }

    private void continuation(JsonParser parser) throws IOException {
        if (parser.currentToken() != JsonToken.START_OBJECT) return;
        String newToken = null;
        double percent = Double.NaN;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            if ("token".equals(field)) newToken = parser.getValueAsString();
            else if ("percentFinished".equals(field)) percent = parser.getValueAsDouble();
            else parser.skipChildren();
        }
        continued(Optional.ofNullable(newToken).filter(t -> ! t.isEmpty()), percent);
    }

    private void continued(Optional<String> newToken, double percent) throws IOException {
        sawContinuation = true;
        if (newToken.isEmpty()) finished = true;
        else token = newToken;
        try {
            sink.continuation(newToken, percent);
        }
        catch (IOException e) {
            sinkFailure = e;
            throw e;
        }
    }

    private void message(JsonParser parser) throws IOException {
        if (parser.currentToken() == JsonToken.VALUE_STRING) {
            error = parser.getText();
            return;
        }
        String text = null, severity = "error";
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String field = parser.currentName();
            parser.nextToken();
            if ("text".equals(field)) text = parser.getValueAsString();
            else if ("severity".equals(field)) severity = parser.getValueAsString();
            else parser.skipChildren();
        }
        if ("error".equals(severity)) error = text;
    }

    /** A non-JSONL visit response: {@code {"documents":[…],"continuation":"…","message":"…"}}. */
    void readJson(InputStream in) throws IOException {
        String continuation = null;
        try (JsonParser parser = json.createParser(in)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) throw new IOException("Expected a JSON object");
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if ("documents".equals(field) && value == JsonToken.START_ARRAY) {
                    while (parser.nextToken() == JsonToken.START_OBJECT) {
                        ByteArrayOutputStream out = new ByteArrayOutputStream();
                        try (JsonGenerator generator = json.createGenerator(out)) {
                            generator.copyCurrentStructure(parser);
                        }
                        byte[] document = out.toByteArray();
                        if ( ! startsWith(document, 0, document.length, "{\"remove\"".getBytes(StandardCharsets.US_ASCII)))
                            deliver(document);
                    }
                }
                else if ("continuation".equals(field)) continuation = parser.getValueAsString();
                else if ("message".equals(field) && value == JsonToken.VALUE_STRING) error = parser.getText();
                else parser.skipChildren();
            }
            if (parser.currentToken() != JsonToken.END_OBJECT) throw new IOException("Truncated JSON response");
        }
        if (error != null && continuation != null) error = null; // a streamed response ending with a token goes on
        if (error == null) continued(Optional.ofNullable(continuation).filter(t -> ! t.isEmpty()), Double.NaN);
    }

    private void deliver(byte[] document) throws IOException { deliver(document, 0, document.length); }

    private void deliver(byte[] bytes, int offset, int length) throws IOException {
        try {
            sink.document(bytes, offset, length);
        }
        catch (IOException e) {
            sinkFailure = e;
            throw e;
        }
    }

    private static boolean startsWith(byte[] bytes, int offset, int length, byte[] prefix) {
        if (length < prefix.length) return false;
        for (int i = 0; i < prefix.length; i++) if (bytes[offset + i] != prefix[i]) return false;
        return true;
    }

}
