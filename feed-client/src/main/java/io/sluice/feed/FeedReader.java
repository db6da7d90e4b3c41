package io.sluice.feed;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.async.ByteArrayFeeder;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * Reads feed operations from a JSON array ({@code [op, op, …]}) or from a sequence of objects (JSONL), streaming:
 * memory holds one operation plus a read chunk, whatever the input size. The {@code fields} object is sliced from the
 * input bytes as it is, not parsed into a tree, and wrapped as the request body {@code {"fields":…}}.
 * <p>
 * Keys: {@code put} or {@code id}, {@code update}, {@code remove} (the document id), {@code condition},
 * {@code create}, {@code fields}; {@value #FAILURE_KEY} is skipped (the feed CLI's dead-letter file puts why an
 * operation failed there, so the file can be fed again as it is). Any other key, a missing id, or a put or update
 * without fields is an error naming the byte offset, line and column. Not thread-safe.
 */
public final class FeedReader implements AutoCloseable {

    private static final JsonFactory factory = new JsonFactory();
    private static final byte[] PREFIX = "{\"fields\":".getBytes(StandardCharsets.US_ASCII);
    private static final int CHUNK = 1 << 16;
    private static final byte[] NO_SOURCE = new byte[0];
    /** The key of a side field every reader skips: the dead-letter file's status and message of a failed operation. */
    public static final String FAILURE_KEY = "failure";

    private final InputStream in;
    private final JsonParser parser;
    private final ByteArrayFeeder feeder;
    private byte[] window = new byte[2 * CHUNK];
    private long windowStart = 0; // stream offset of window[0]
    private int windowLength = 0;
    private long keepFrom = 0;    // stream offset of the first byte that must stay in the window
    private volatile long bytesRead = 0; // read by progress reporters on other threads
    private boolean started = false;
    private boolean array = false;
    private boolean ended = false;
    private boolean keepSource = false;
    private final Position base; // where in the whole input this reader's first byte is

    /** A place in the input: the byte offset, and the line and column (from 1) of that byte. */
    public record Position(long offset, int line, int column) {
        public static final Position START = new Position(0, 1, 1);
    }

    private FeedReader(InputStream in, Position base) {
        this.in = in;
        this.base = base;
        try {
            this.parser = factory.createNonBlockingByteArrayParser();
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.feeder = (ByteArrayFeeder) parser.getNonBlockingInputFeeder();
    }

    public static FeedReader of(InputStream in) { return new FeedReader(in, Position.START); }

    /**
     * A reader of JSONL whose first byte is at {@code position} of a larger input (the rest of a file after a
     * checkpoint): offsets, lines and columns in operations and errors count from the start of that input. A JSON array
     * cannot be resumed in the middle: its first token there is an error.
     */
    public static FeedReader resumed(InputStream in, Position position) {
        FeedReader reader = new FeedReader(in, position);
        if (position.offset() > 0) reader.started = true;
        return reader;
    }

    /** Makes every operation carry its {@link FeedOperation#source()} bytes; returns this. */
    public FeedReader keepingSource() {
        keepSource = true;
        return this;
    }

    /** Bytes consumed from the input so far (counting from the resume position, if any). */
    public long bytesRead() { return base.offset() + bytesRead; }

    /**
     * The next operation, or empty at the end of the input.
     *
     * @throws OperationParseException when the input is malformed; reading cannot go on after that
     * @throws UncheckedIOException when reading the input fails
     */
    public Optional<FeedOperation> next() {
        try {
            if (ended) return Optional.empty();
            JsonToken token = nextToken();
            if ( ! started) {
                started = true;
                if (token == JsonToken.START_ARRAY) {
                    array = true;
                    token = nextToken();
                }
            }
            if (token == null || array && token == JsonToken.END_ARRAY) {
                if (array && token == JsonToken.END_ARRAY && nextToken() != null)
                    throw error("Unexpected content after the end of the array");
                ended = true;
                return Optional.empty();
            }
            if (token != JsonToken.START_OBJECT)
                throw error(token == JsonToken.START_ARRAY && base.offset() > 0
                            ? "A JSON array feed cannot be resumed from a checkpoint: use JSONL" : "Expected an operation object, but got " + token);
            return Optional.of(operation());
        }
        catch (JsonProcessingException e) {
            ended = true;
            throw new OperationParseException("Malformed JSON: " + e.getOriginalMessage() + " " + where(e.getLocation()), e);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        catch (OperationParseException e) {
            ended = true;
            throw e;
        }
    }

    private FeedOperation operation() throws IOException {
        keepFrom = openingBrace(parser.currentTokenLocation().getByteOffset());
        long start = keepFrom;
        OperationType type = null;
        String id = null;
        String condition = null;
        boolean create = false;
        long fieldsStart = -1, fieldsEnd = -1;
        JsonToken token;
        while ((token = nextToken()) == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonLocation nameLocation = parser.currentTokenLocation();
            JsonToken value = nextToken();
            switch (name) {
                case "put": case "id": case "update": case "remove":
                    if (type != null) throw error("Operation has both '" + typeKey(type) + "' and '" + name + "'", nameLocation);
                    type = name.equals("update") ? OperationType.UPDATE : name.equals("remove") ? OperationType.REMOVE : OperationType.PUT;
                    if (value != JsonToken.VALUE_STRING) throw error("Expected a document id string for '" + name + "', but got " + value);
                    id = parser.getText();
                    break;
                case "condition":
                    if (value == JsonToken.VALUE_STRING) condition = parser.getText();
                    else if (value != JsonToken.VALUE_NULL) throw error("Expected a string for 'condition', but got " + value);
                    break;
                case "create":
                    if (value != JsonToken.VALUE_TRUE && value != JsonToken.VALUE_FALSE) throw error("Expected a boolean for 'create', but got " + value);
                    create = value == JsonToken.VALUE_TRUE;
                    break;
                case FAILURE_KEY:
                    parser.skipChildren();
                    break;
                case "fields":
                    if (value != JsonToken.START_OBJECT) throw error("Expected an object for 'fields', but got " + value);
                    fieldsStart = openingBrace(parser.currentTokenLocation().getByteOffset());
                    skipObject();
                    fieldsEnd = parser.currentLocation().getByteOffset();
                    break;
                default:
                    throw error("Unexpected field name '" + name + "'", nameLocation);
            }
        }
        if (token != JsonToken.END_OBJECT) throw error("Expected a field name or the end of the operation, but got " + token);
        if (type == null) throw error("Operation has no document id: missing 'put', 'id', 'update' or 'remove'");
        DocumentId documentId;
        try {
            documentId = DocumentId.of(id);
        }
        catch (IllegalArgumentException e) {
            throw error(e.getMessage());
        }
        byte[] body;
        if (type == OperationType.REMOVE) {
            if (fieldsStart >= 0) throw error("A remove must not have 'fields', in operation for '" + id + "'");
            body = HttpRequest.NO_BODY;
        }
        else {
            if (fieldsStart < 0) throw error("Missing 'fields' in " + typeKey(type) + " of '" + id + "'");
            int length = (int) (fieldsEnd - fieldsStart);
            body = new byte[PREFIX.length + length + 1];
            System.arraycopy(PREFIX, 0, body, 0, PREFIX.length);
            System.arraycopy(window, (int) (fieldsStart - windowStart), body, PREFIX.length, length);
            body[body.length - 1] = '}';
        }
        // The async parser's location after an END_OBJECT is at its brace or just after it, depending on what follows.
        JsonLocation location = parser.currentLocation();
        long end = location.getByteOffset();
        int atBrace = end < windowStart + windowLength && window[(int) (end - windowStart)] == '}' ? 1 : 0;
        end += atBrace;
        keepFrom = end;
        byte[] source = keepSource ? Arrays.copyOfRange(window, (int) (start - windowStart), (int) (end - windowStart)) : NO_SOURCE;
        Position position = position(location);
        return new FeedOperation(type, documentId, Optional.ofNullable(condition), create, body, source,
                                 new Position(position.offset() + atBrace, position.line(), position.column() + atBrace));
    }

    /** The async parser may place a START_OBJECT just after its brace: find the brace itself. */
    private long openingBrace(long offset) {
        long position = Math.min(offset, windowStart + windowLength - 1);
        while (position > windowStart && window[(int) (position - windowStart)] != '{') position--;
        return position;
    }

    private static String typeKey(OperationType type) {
        return type == OperationType.PUT ? "put" : type == OperationType.UPDATE ? "update" : "remove";
    }

    private void skipObject() throws IOException {
        for (int depth = 1; depth > 0; ) {
            JsonToken token = nextToken();
            if (token == null) throw error("Unexpected end of input inside 'fields'");
            if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) depth++;
            else if (token == JsonToken.END_OBJECT || token == JsonToken.END_ARRAY) depth--;
        }
    }

    /** The next token, reading more input as needed; null at the end. */
    private JsonToken nextToken() throws IOException {
        while (true) {
            JsonToken token = parser.nextToken();
            if (token != JsonToken.NOT_AVAILABLE) return token;
            fill();
        }
    }

    private void fill() throws IOException {
        int keep = (int) (keepFrom - windowStart);
        if (keep > 0 && window.length - windowLength < CHUNK) { // drop what is no longer needed
            System.arraycopy(window, keep, window, 0, windowLength - keep);
            windowLength -= keep;
            windowStart += keep;
        }
        if (window.length - windowLength < CHUNK) window = Arrays.copyOf(window, Math.max(window.length * 2, windowLength + CHUNK));
        int read = in.read(window, windowLength, window.length - windowLength);
        if (read < 0) {
            feeder.endOfInput();
            return;
        }
        if (read == 0) return;
        feeder.feedInput(window, windowLength, windowLength + read);
        windowLength += read;
        bytesRead += read;
    }

    private OperationParseException error(String message) {
        return error(message, parser.currentTokenLocation());
    }

    private OperationParseException error(String message, JsonLocation location) {
        return new OperationParseException(message + " " + where(location));
    }

    /** The place of a parser location in the whole input. */
    private Position position(JsonLocation location) {
        int line = location.getLineNr();
        return new Position(base.offset() + location.getByteOffset(), base.line() + line - 1,
                            line == 1 ? base.column() + location.getColumnNr() - 1 : location.getColumnNr());
    }

    private String where(JsonLocation location) {
        if (location == null) return "";
        Position position = position(location);
        return "at offset " + position.offset() + " (line " + position.line() + ", column " + position.column() + ")";
    }

    @Override public void close() throws IOException {
        parser.close();
        in.close();
    }

}
