package io.sluice.document.select;

import io.sluice.document.ArrayValue;
import io.sluice.document.BoolValue;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DoubleValue;
import io.sluice.document.FieldValue;
import io.sluice.document.FloatValue;
import io.sluice.document.ImportedField;
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
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A {@link Document} (or the tombstone of one) seen as a {@link SelectionContext}: field values are converted to the
 * plain Java view that interface documents, on demand, so evaluating a selection touches only the fields it names.
 * Type tests honour inheritance. Imported fields are read from the parent document through {@link ParentDocuments}
 * (a parent's own imported fields from its parent, and so on, at most {@value #MAX_IMPORT_DEPTH} levels).
 */
public final class DocumentSelectionContext implements SelectionContext {

    /** How many references an imported field is followed through: Vespa's schemas cannot cycle, this is a guard. */
    static final int MAX_IMPORT_DEPTH = 8;

    private final DocumentId id;
    private final DocumentType type;
    private final boolean live;
    private final ParentDocuments parents;
    private final int depth;
    private Supplier<Document> decoder; // null once decoded, or for a tombstone
    private Document document;

    private DocumentSelectionContext(DocumentId id, DocumentType type, boolean live, Document document,
                                     Supplier<Document> decoder, ParentDocuments parents, int depth) {
        this.id = Objects.requireNonNull(id, "id");
        this.type = Objects.requireNonNull(type, "type");
        this.live = live;
        this.document = document;
        this.decoder = decoder;
        this.parents = Objects.requireNonNull(parents, "parents");
        this.depth = depth;
    }

    /** The view of a live document whose imported fields are {@code null}. */
    public static SelectionContext of(Document document) {
        return of(document, ParentDocuments.NONE);
    }

    /** The view of a live document whose imported fields are read from {@code parents}. */
    public static SelectionContext of(Document document, ParentDocuments parents) {
        return new DocumentSelectionContext(document.id(), document.type(), true, document, null, parents, 0);
    }

    /**
     * The view of a live document {@code id} of {@code type} that is decoded by {@code decoder} only when the selection
     * reads a field: tests of the id and the type need no document. Its imported fields are {@code null}. Not
     * thread-safe.
     */
    public static SelectionContext lazy(DocumentId id, DocumentType type, Supplier<Document> decoder) {
        return lazy(id, type, decoder, ParentDocuments.NONE);
    }

    /** As {@link #lazy(DocumentId, DocumentType, Supplier)}, with imported fields read from {@code parents}. */
    public static SelectionContext lazy(DocumentId id, DocumentType type, Supplier<Document> decoder,
                                        ParentDocuments parents) {
        return new DocumentSelectionContext(id, type, true, null, Objects.requireNonNull(decoder, "decoder"), parents, 0);
    }

    /** The view of a removed document of {@code type}: id and type can be tested, fields are unknown. */
    public static SelectionContext removed(DocumentId id, DocumentType type) {
        return new DocumentSelectionContext(id, type, false, null, null, ParentDocuments.NONE, 0);
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
        if (value != null) {
            return view(value);
        }
        return parents == ParentDocuments.NONE ? null : imported(name);
    }

    /** The value of the field imported as {@code name} from the parent document, or null if it cannot be reached. */
    private Object imported(String name) {
        Optional<ImportedField> field = type.importedField(name);
        if (field.isEmpty() || depth >= MAX_IMPORT_DEPTH) {
            return null;
        }
        FieldValue reference = document.fields().get(field.get().referenceField());
        if (!(reference instanceof ReferenceValue)) {
            return null;
        }
        Optional<Document> parent = parents.find(((ReferenceValue) reference).id());
        if (parent.isEmpty()) {
            return null;
        }
        Document found = parent.get();
        return new DocumentSelectionContext(found.id(), found.type(), true, found, null, parents, depth + 1)
                .fieldValue(field.get().parentField());
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
