package io.sluice.document.select;

import io.sluice.document.ArrayValue;
import io.sluice.document.BoolValue;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DoubleValue;
import io.sluice.document.FieldValue;
import io.sluice.document.FloatValue;
import io.sluice.document.MapValue;
import io.sluice.document.NumericValue;
import io.sluice.document.PositionValue;
import io.sluice.document.PredicateValue;
import io.sluice.document.RawValue;
import io.sluice.document.ReferenceValue;
import io.sluice.document.StringValue;
import io.sluice.document.StructValue;
import io.sluice.document.UriValue;
import io.sluice.document.WeightedSetValue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * A {@link Document} (or the tombstone of one) seen as a {@link SelectionContext}: field values are converted to the
 * plain Java view that interface documents, on demand, so evaluating a selection touches only the fields it names.
 * Type tests honour inheritance.
 */
public final class DocumentSelectionContext implements SelectionContext {

    private final DocumentId id;
    private final DocumentType type;
    private final boolean live;
    private Supplier<Document> decoder; // null once decoded, or for a tombstone
    private Document document;

    private DocumentSelectionContext(DocumentId id, DocumentType type, boolean live, Document document,
                                     Supplier<Document> decoder) {
        this.id = Objects.requireNonNull(id, "id");
        this.type = Objects.requireNonNull(type, "type");
        this.live = live;
        this.document = document;
        this.decoder = decoder;
    }

    /** The view of a live document. */
    public static SelectionContext of(Document document) {
        return new DocumentSelectionContext(document.id(), document.type(), true, document, null);
    }

    /**
     * The view of a live document {@code id} of {@code type} that is decoded by {@code decoder} only when the selection
     * reads a field: tests of the id and the type need no document. Not thread-safe.
     */
    public static SelectionContext lazy(DocumentId id, DocumentType type, Supplier<Document> decoder) {
        return new DocumentSelectionContext(id, type, true, null, Objects.requireNonNull(decoder, "decoder"));
    }

    /** The view of a removed document of {@code type}: id and type can be tested, fields are unknown. */
    public static SelectionContext removed(DocumentId id, DocumentType type) {
        return new DocumentSelectionContext(id, type, false, null, null);
    }

    @Override
    public DocumentId id() {
        return id;
    }

    @Override
    public boolean isOfType(String documentType) {
        return type.isA(documentType);
    }

    @Override
    public boolean hasFields() {
        return live;
    }

    @Override
    public Object fieldValue(String name) {
        if (!live) {
            return null;
        }
        if (document == null) {
            document = decoder.get();
            decoder = null;
        }
        FieldValue value = document.fields().get(name);
        return value == null ? null : view(value);
    }

    /** The plain Java view of {@code value}, or {@code null} if it is empty. */
    static Object view(FieldValue value) {
        if (value.isEmpty()) {
            return null;
        }
        if (value instanceof StringValue) {
            return ((StringValue) value).value();
        }
        if (value instanceof NumericValue) {
            NumericValue number = (NumericValue) value;
            return value instanceof FloatValue || value instanceof DoubleValue ? (Object) number.doubleValue()
                                                                              : (Object) number.longValue();
        }
        if (value instanceof BoolValue) {
            return ((BoolValue) value).value();
        }
        if (value instanceof UriValue) {
            return ((UriValue) value).value();
        }
        if (value instanceof PredicateValue) {
            return ((PredicateValue) value).value();
        }
        if (value instanceof ReferenceValue) {
            return ((ReferenceValue) value).id().toString();
        }
        if (value instanceof RawValue) {
            return ((RawValue) value).bytes();
        }
        if (value instanceof ArrayValue) {
            List<Object> elements = new ArrayList<>();
            for (FieldValue element : ((ArrayValue) value).elements()) {
                elements.add(view(element));
            }
            return elements;
        }
        if (value instanceof MapValue) {
            Map<Object, Object> entries = new LinkedHashMap<>();
            ((MapValue) value).entries().forEach((k, v) -> entries.put(view(k), view(v)));
            return entries;
        }
        if (value instanceof WeightedSetValue) {
            Map<Object, Object> weights = new LinkedHashMap<>();
            ((WeightedSetValue) value).weights().forEach((k, w) -> weights.put(view(k), (long) w));
            return weights;
        }
        if (value instanceof StructValue) {
            Map<String, Object> fields = new LinkedHashMap<>();
            ((StructValue) value).fields().forEach((k, v) -> {
                Object view = view(v);
                if (view != null) {
                    fields.put(k, view);
                }
            });
            return new Struct(fields);
        }
        if (value instanceof PositionValue) {
            PositionValue position = (PositionValue) value;
            return new Struct(Map.of("x", (long) position.longitudeMicro(), "y", (long) position.latitudeMicro()));
        }
        return value; // tensors: comparable with null only
    }

    @Override
    public String toString() {
        return document == null ? "removed " + id : document.toString();
    }

}
