package io.sluice.content.memory;

import io.sluice.document.ArrayValue;
import io.sluice.document.Document;
import io.sluice.document.FieldValue;
import io.sluice.document.MapValue;
import io.sluice.document.PredicateValue;
import io.sluice.document.RawValue;
import io.sluice.document.StringValue;
import io.sluice.document.StructValue;
import io.sluice.document.TensorValue;
import io.sluice.document.UriValue;
import io.sluice.document.WeightedSetValue;

import java.util.Map;

/** Rough sizes of documents, for the in-memory store's byte limit: proportional to content, not exact heap use. */
final class DocumentSizes {

    private static final long FIXED_OVERHEAD = 64;
    private static final long VALUE_OVERHEAD = 16;
    private static final long TENSOR_CELL = 16;

    private DocumentSizes() { }

    /** The estimated size of {@code document} in bytes. */
    static long estimate(Document document) {
        long size = FIXED_OVERHEAD + 2L * document.id().toString().length();
        for (Map.Entry<String, FieldValue> field : document.fields().entrySet()) {
            size += 2L * field.getKey().length() + estimate(field.getValue());
        }
        return size;
    }

    private static long estimate(FieldValue value) {
        if (value instanceof StringValue) {
            return VALUE_OVERHEAD + 2L * ((StringValue) value).value().length();
        }
        if (value instanceof UriValue) {
            return VALUE_OVERHEAD + 2L * ((UriValue) value).value().length();
        }
        if (value instanceof PredicateValue) {
            return VALUE_OVERHEAD + 2L * ((PredicateValue) value).value().length();
        }
        if (value instanceof RawValue) {
            return VALUE_OVERHEAD + ((RawValue) value).length();
        }
        if (value instanceof TensorValue) {
            return VALUE_OVERHEAD + TENSOR_CELL * ((TensorValue) value).cellCount();
        }
        if (value instanceof ArrayValue) {
            long size = VALUE_OVERHEAD;
            for (FieldValue element : ((ArrayValue) value).elements()) {
                size += estimate(element);
            }
            return size;
        }
        if (value instanceof MapValue) {
            long size = VALUE_OVERHEAD;
            for (Map.Entry<FieldValue, FieldValue> entry : ((MapValue) value).entries().entrySet()) {
                size += estimate(entry.getKey()) + estimate(entry.getValue());
            }
            return size;
        }
        if (value instanceof WeightedSetValue) {
            long size = VALUE_OVERHEAD;
            for (FieldValue key : ((WeightedSetValue) value).weights().keySet()) {
                size += estimate(key) + Integer.BYTES;
            }
            return size;
        }
        if (value instanceof StructValue) {
            long size = VALUE_OVERHEAD;
            for (Map.Entry<String, FieldValue> field : ((StructValue) value).fields().entrySet()) {
                size += 2L * field.getKey().length() + estimate(field.getValue());
            }
            return size;
        }
        return VALUE_OVERHEAD; // numbers, booleans, positions, references
    }

}
