package io.sluice.document.select;

import io.sluice.document.DocumentId;

import java.util.Map;
import java.util.Objects;

/**
 * The document a selection is evaluated against, as a plain Java view.
 *
 * <p>{@link #fieldValue(String)} returns a top-level field's value mapped as follows; {@code null} means the field is
 * not set, and empty strings, arrays, maps and weighted sets must be reported as {@code null} too (they are "not set"
 * in the document model):
 * <ul>
 *   <li>string, uri, predicate (its text, canonical unless stored before predicates were checked), reference (the id
 *       string) &rarr; {@link String}</li>
 *   <li>byte, int, long &rarr; {@link Long}; float, double &rarr; {@link Double}; bool &rarr; {@link Boolean}</li>
 *   <li>raw &rarr; {@code byte[]}</li>
 *   <li>array&lt;T&gt; &rarr; {@link java.util.List} of the element view, in order</li>
 *   <li>map&lt;K,V&gt; &rarr; {@link Map} from key view to value view</li>
 *   <li>weightedset&lt;T&gt; &rarr; {@link Map} from key view to its weight as {@link Long}</li>
 *   <li>struct &rarr; {@link Struct} of its set fields (position is a struct with {@code x}, {@code y} as Long)</li>
 *   <li>tensor and anything else &rarr; any other object; it can only be compared with {@code null}</li>
 * </ul>
 * Multi-value fields match a comparison if any array element, map key or weighted-set key does;
 * {@code m{key}} reads a map value or weight, {@code a[i]} an array element, {@code s.f} a struct field,
 * {@code m.key} / {@code m.value} all keys / values, and {@code m{$v}} / {@code a[$v]} all values / elements.
 *
 * <p>For a removed document (tombstone) {@link #hasFields()} is false: its id and type can be tested, but every
 * field reference evaluates to {@link Result#INVALID}.
 */
public interface SelectionContext {

    /** The document's id. */
    DocumentId id();

    /** Whether the document is of type {@code documentType} or of a type inheriting it. */
    boolean isOfType(String documentType);

    /** False for removed documents, whose fields are unknown. */
    boolean hasFields();

    /** The value of the top-level field {@code name} in the view described above, or {@code null} if not set. */
    Object fieldValue(String name);

    /** A struct value: its set fields by name, in the same view. */
    record Struct(Map<String, Object> fields) {
        public Struct {
            fields = Map.copyOf(fields);
        }
    }

    /** A document of exactly the type named in its id (no inheritance) with the given top-level field values. */
    static SelectionContext of(DocumentId id, Map<String, ?> fields) {
        Objects.requireNonNull(id);
        Map<String, ?> copy = Map.copyOf(fields);
        return new SelectionContext() {
            @Override public DocumentId id() { return id; }
            @Override public boolean isOfType(String documentType) { return id.documentType().equals(documentType); }
            @Override public boolean hasFields() { return true; }
            @Override public Object fieldValue(String name) { return copy.get(name); }
        };
    }

    /** A removed document of exactly the type named in its id. */
    static SelectionContext removed(DocumentId id) {
        Objects.requireNonNull(id);
        return new SelectionContext() {
            @Override public DocumentId id() { return id; }
            @Override public boolean isOfType(String documentType) { return id.documentType().equals(documentType); }
            @Override public boolean hasFields() { return false; }
            @Override public Object fieldValue(String name) { return null; }
        };
    }

}
