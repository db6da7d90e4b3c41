package io.sluice.document.json;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A document's {@code fields} object as UTF-8 JSON, exactly as {@link DocumentJsonWriter} writes it with
 * {@link TensorFormat#SHORT} tensors for the application's current types: what an engine that stores that form can hand
 * to a get without decoding the document and encoding it again. A view of {@code length} bytes of {@code bytes} from
 * {@code offset}; the array is not copied and must not change.
 */
public record FieldsJson(byte[] bytes, int offset, int length) {

    /** The tensor format the fields are written in; a response asking for another one must re-encode. */
    public static final TensorFormat TENSOR_FORMAT = TensorFormat.SHORT;

    public FieldsJson {
        Objects.requireNonNull(bytes, "bytes");
        Objects.checkFromIndexSize(offset, length, bytes.length);
        if (length < 2 || bytes[offset] != '{' || bytes[offset + length - 1] != '}')
            throw new IllegalArgumentException("Not a JSON object: " + new String(bytes, offset, Math.min(length, 64),
                                                                                   StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return new String(bytes, offset, length, StandardCharsets.UTF_8);
    }

}
