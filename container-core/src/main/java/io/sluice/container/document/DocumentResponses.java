package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import io.sluice.container.Json;
import io.sluice.document.DocumentId;
import io.sluice.content.Outcome;
import io.sluice.document.json.DocumentJsonWriter;
import io.sluice.document.json.FieldsJson;
import io.sluice.http.common.BodySlabs;
import org.eclipse.jetty.http.HttpStatus;

import java.nio.ByteBuffer;
import java.util.Optional;

/**
 * The JSON bodies of {@code /document/v1} responses (spec §2.1), and the one place where errors and backend outcomes
 * become a status and a body. Every body is an object starting with {@code pathId}; {@code id} follows for answers
 * about one document, then {@code trace} if any, then {@code message} or {@code fields}.
 */
public final class DocumentResponses {

    /**
     * A status and body to send once: the body from its position to its limit, which sending may consume (a large
     * body is handed to Jetty as it is).
     */
    public record Reply(int status, ByteBuffer body, BodySlabs.Lease lease) {

        public Reply(int status, ByteBuffer body) {
            this(status, body, null);
        }

        public Reply(int status, byte[] body) {
            this(status, ByteBuffer.wrap(body));
        }

        /** A reply whose body is {@code lease}'s buffer, released when sent or refused ({@link Exchange#respond}). */
        static Reply of(int status, BodySlabs.Lease lease) {
            return new Reply(status, lease.buffer(), lease);
        }

        /** The body's bytes, copied. */
        public byte[] bytes() {
            byte[] bytes = new byte[body.remaining()];
            body.duplicate().get(bytes);
            return bytes;
        }

    }

    private DocumentResponses() { }

    /** {@code {"pathId","message"}} with the exception's status: handler-level errors carry no id. */
    public static Reply error(String pathId, HttpStatusException exception) {
        return new Reply(exception.status(), body(pathId, Optional.empty(), null, exception.getMessage()));
    }

    /** {@code {"pathId","message"}} with {@code status}. */
    public static Reply error(String pathId, int status, String message) {
        return new Reply(status, body(pathId, Optional.empty(), null, message));
    }

    /**
     * 500 for a failure the server did not expect: the details (exception classes, stack) go to the log, once, by the
     * caller, never to the client.
     */
    public static Reply internalError(String pathId) {
        return error(pathId, HttpStatus.INTERNAL_SERVER_ERROR_500, "Internal server error; the server log has the details");
    }

    /**
     * {@code status} with {@code {"pathId","id"[,"trace"]}}: a successful write, a dry run, or a get that found nothing
     * (404).
     */
    public static Reply success(int status, String pathId, DocumentId id, Trace trace) {
        if (isQuiet(trace)) {
            BodySlabs.Lease plain = PlainJson.idBody(pathId, id.toString(), null);
            if (plain != null)
                return Reply.of(status, plain);
        }
        return new Reply(status, body(pathId, Optional.of(id), trace, null));
    }

    /** Whether {@code trace} adds nothing to a body. */
    private static boolean isQuiet(Trace trace) {
        return trace == null || ! trace.isEnabled();
    }

    /**
     * The response to a backend outcome for document {@code id}: 200 with {@code {"pathId","id"[,"trace"]}} for
     * success, 404 with the same body for a get that found nothing, and for every failure its status (400, 412, 429,
     * 503, 504, 507, 500) with {@code message}. A found document is rendered by {@link #document} instead.
     */
    public static Reply outcome(String pathId, DocumentId id, Outcome outcome, Trace trace) {
        switch (outcome.status()) {
            case SUCCESS: return success(HttpStatus.OK_200, pathId, id, trace);
            case NOT_FOUND: return success(HttpStatus.NOT_FOUND_404, pathId, id, trace);
            default: return new Reply(status(outcome.status()), body(pathId, Optional.of(id), trace, outcome.message()));
        }
    }

    /** The HTTP status for a backend outcome status. */
    public static int status(Outcome.Status status) {
        switch (status) {
            case SUCCESS: return HttpStatus.OK_200;
            case NOT_FOUND: return HttpStatus.NOT_FOUND_404;
            case CONDITION_FAILED: return HttpStatus.PRECONDITION_FAILED_412;
            case OVERLOAD: return HttpStatus.TOO_MANY_REQUESTS_429;
            case UNAVAILABLE: return HttpStatus.SERVICE_UNAVAILABLE_503;
            case INSUFFICIENT_STORAGE: return HttpStatus.INSUFFICIENT_STORAGE_507;
            case TIMEOUT: return HttpStatus.GATEWAY_TIMEOUT_504;
            case INVALID: return HttpStatus.BAD_REQUEST_400;
            case ERROR: return HttpStatus.INTERNAL_SERVER_ERROR_500;
            default: throw new IllegalArgumentException("Unknown outcome status " + status);
        }
    }

    /**
     * {@code {"pathId","id"[,"trace"],"fields":{...}}} for the document a get found ({@code outcome}), with tensors as
     * {@code writer} writes them: the engine's stored fields as they are when it has them in that form
     * ({@link Outcome#fieldsJson()}), else written from the decoded document.
     */
    public static Reply found(String pathId, DocumentId id, Outcome outcome, DocumentJsonWriter writer, Trace trace) {
        FieldsJson stored = outcome.fieldsJson().orElse(null);
        if (stored != null && isQuiet(trace) && writer.tensorFormat() == FieldsJson.TENSOR_FORMAT) {
            BodySlabs.Lease plain = PlainJson.idBody(pathId, id.toString(), stored);
            if (plain != null)
                return Reply.of(HttpStatus.OK_200, plain);
        }
        return new Reply(HttpStatus.OK_200, Json.write(json -> {
            json.writeStartObject();
            json.writeStringField("pathId", pathId);
            json.writeStringField("id", id.toString());
            if (trace != null)
                trace.write(json);
            json.writeFieldName("fields");
            writer.writeFields(json, stored, () -> outcome.document().orElseThrow());
            json.writeEndObject();
        }));
    }

    private static byte[] body(String pathId, Optional<DocumentId> id, Trace trace, String message) {
        return Json.write(json -> {
            json.writeStartObject();
            json.writeStringField("pathId", pathId);
            if (id.isPresent())
                json.writeStringField("id", id.get().toString());
            if (trace != null)
                trace.write(json);
            if (message != null)
                json.writeStringField("message", message);
            json.writeEndObject();
        });
    }

}
