package io.sluice.container.document;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.content.ProgressToken;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import io.sluice.document.json.DocumentJsonWriter;
import io.sluice.document.json.TensorFormat;

import java.io.IOException;
import java.util.Objects;
import java.util.Optional;

/**
 * How visited documents are written (spec §2.4), piece by piece to one generator: a JSON object with a
 * {@code documents} array and an epilogue, or JSON lines ending with a continuation line.
 */
abstract class VisitFormat {

    /** What a visit response ends with. */
    record Summary(int documentCount, Trace trace, Optional<String> message, boolean error,
                   Optional<ProgressToken> continuation, double percentFinished) { }

    /** The JSON object form; hex tensor formats fall back to their non-hex versions, as in Vespa. */
    static VisitFormat json(String pathId, TensorFormat tensors) {
        return new JsonObject(pathId, DocumentJsonWriter.of(withoutHex(tensors)));
    }

    /** The JSON lines form: every format of tensors is honoured. */
    static VisitFormat jsonLines(TensorFormat tensors) {
        return new JsonLines(DocumentJsonWriter.of(tensors));
    }

    private static TensorFormat withoutHex(TensorFormat format) {
        switch (format) {
            case HEX: return TensorFormat.SHORT;
            case HEX_VALUE: return TensorFormat.SHORT_VALUE;
            default: return format;
        }
    }

    /** The Content-Type of the response. */
    abstract String contentType();

    /** Writes what comes before the first entry. */
    abstract void start(JsonGenerator json) throws IOException;

    /** Writes a document or a tombstone. */
    abstract void entry(JsonGenerator json, VisitEntry entry) throws IOException;

    /** Writes what follows a batch's entries, when the batch had entries. */
    abstract void progress(JsonGenerator json, VisitBatch batch) throws IOException;

    /** Writes the end. */
    abstract void end(JsonGenerator json, Summary summary) throws IOException;

    private static final class JsonObject extends VisitFormat {

        private final String pathId;
        private final DocumentJsonWriter writer;

        JsonObject(String pathId, DocumentJsonWriter writer) {
            this.pathId = Objects.requireNonNull(pathId, "pathId");
            this.writer = writer;
        }

        @Override
        String contentType() {
            return Exchange.JSON;
        }

        @Override
        void start(JsonGenerator json) throws IOException {
            json.writeStartObject();
            json.writeStringField("pathId", pathId);
            json.writeArrayFieldStart("documents");
        }

        @Override
        void entry(JsonGenerator json, VisitEntry entry) throws IOException {
            if (entry.isRemove()) {
                json.writeStartObject();
                json.writeStringField("remove", entry.id().toString());
                json.writeEndObject();
            }
            else
                writer.writeDocument(json, entry.id(), entry.fieldsJson().orElse(null), () -> entry.document().orElseThrow());
        }

        @Override
        void progress(JsonGenerator json, VisitBatch batch) { }

        @Override
        void end(JsonGenerator json, Summary summary) throws IOException {
            json.writeEndArray();
            json.writeNumberField("documentCount", summary.documentCount());
            summary.trace().write(json);
            if (summary.message().isPresent())
                json.writeStringField("message", summary.message().get());
            if (summary.continuation().isPresent())
                json.writeStringField("continuation", summary.continuation().get().encoded());
            json.writeEndObject();
        }

    }

    private static final class JsonLines extends VisitFormat {

        private final DocumentJsonWriter writer;

        JsonLines(DocumentJsonWriter writer) {
            this.writer = writer;
        }

        @Override
        String contentType() {
            return "application/jsonl; charset=UTF-8";
        }

        @Override
        void start(JsonGenerator json) {
            json.setRootValueSeparator(null); // lines are separated by the newlines written after each
        }

        @Override
        void entry(JsonGenerator json, VisitEntry entry) throws IOException {
            if (entry.isRemove()) {
                json.writeStartObject();
                json.writeStringField("remove", entry.id().toString());
                json.writeEndObject();
            }
            else
                writer.writePut(json, entry.id(), entry.fieldsJson().orElse(null), () -> entry.document().orElseThrow());
            json.writeRaw('\n');
        }

        /** After a batch ending at a bucket boundary, a continuation line, so a cut stream can be resumed from there. */
        @Override
        void progress(JsonGenerator json, VisitBatch batch) throws IOException {
            if (batch.atBucketBoundary() && ! batch.isFinished())
                continuation(json, batch.continuation(), batch.percentFinished());
        }

        @Override
        void end(JsonGenerator json, Summary summary) throws IOException {
            json.writeStartObject();
            json.writeObjectFieldStart("sessionStats");
            json.writeNumberField("documentCount", summary.documentCount());
            json.writeEndObject();
            json.writeEndObject();
            json.writeRaw('\n');
            if ( ! summary.trace().isEmpty()) {
                json.writeStartObject();
                json.writeObjectFieldStart("sessionTrace");
                summary.trace().write(json);
                json.writeEndObject();
                json.writeEndObject();
                json.writeRaw('\n');
            }
            if (summary.message().isPresent()) {
                json.writeStartObject();
                json.writeObjectFieldStart("message");
                json.writeStringField("text", summary.message().get());
                json.writeStringField("severity", summary.error() ? "error" : "warning");
                json.writeEndObject();
                json.writeEndObject();
                json.writeRaw('\n');
            }
            continuation(json, summary.continuation(), summary.percentFinished());
        }

        private static void continuation(JsonGenerator json, Optional<ProgressToken> token, double percentFinished)
                throws IOException {
            json.writeStartObject();
            json.writeObjectFieldStart("continuation");
            if (token.isPresent())
                json.writeStringField("token", token.get().encoded());
            json.writeNumberField("percentFinished", token.isPresent() ? percentFinished : 100.0);
            json.writeEndObject();
            json.writeEndObject();
            json.writeRaw('\n');
        }

    }

}
