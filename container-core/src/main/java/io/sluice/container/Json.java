package io.sluice.container;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Writes small JSON documents to bytes with jackson-core. */
public final class Json {

    private static final JsonFactory factory = new JsonFactory();

    /** What to write with a generator; may throw the generator's {@link IOException}. */
    @FunctionalInterface
    public interface Body {
        void write(JsonGenerator generator) throws IOException;
    }

    private Json() { }

    /** The UTF-8 bytes written by {@code body}, compact. */
    public static byte[] write(Body body) {
        return write(body, false);
    }

    /** The UTF-8 bytes written by {@code body}, indented for people when {@code pretty}. */
    public static byte[] write(Body body, boolean pretty) {
        var out = new ByteArrayOutputStream(256);
        try (JsonGenerator generator = factory.createGenerator(out)) {
            if (pretty)
                generator.useDefaultPrettyPrinter();
            body.write(generator);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Writing JSON to memory failed", e);
        }
        return out.toByteArray();
    }

    /** {@code {"message": message}}. */
    public static byte[] message(String message) {
        return write(generator -> {
            generator.writeStartObject();
            generator.writeStringField("message", message);
            generator.writeEndObject();
        });
    }

}
