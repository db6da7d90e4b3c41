package io.sluice.document;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A document's field values as an unmodifiable map, in the order of its type's fields: one array with a slot per field
 * of the type, {@code null} where the field is not set. A stored document is one of these instead of a hash map with
 * an entry object per field, which matters to an engine that holds many documents on the heap (the collector copies
 * objects, and this is two instead of three plus one per field) and to every request that builds one.
 */
final class DocumentFields extends AbstractMap<String, FieldValue> {

    private final DocumentType type;
    private final FieldValue[] values;
    private final int size;

    /** Takes {@code values} (one slot per field of {@code type}) over: the caller must not change it afterwards. */
    DocumentFields(DocumentType type, FieldValue[] values, int size) {
        this.type = type;
        this.values = values;
        this.size = size;
    }

    /** The values, one slot per field of the type, shared: never change them. */
    FieldValue[] slots() {
        return values;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public FieldValue get(Object fieldName) {
        int index = type.fieldIndex(fieldName);
        return index < 0 ? null : values[index];
    }

    @Override
    public boolean containsKey(Object fieldName) {
        return get(fieldName) != null;
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super FieldValue> action) {
        for (int i = 0; i < values.length; i++)
            if (values[i] != null) action.accept(type.fieldAt(i).name(), values[i]);
    }

    @Override
    public Set<Entry<String, FieldValue>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public Iterator<Entry<String, FieldValue>> iterator() {
                return new Iterator<>() {
                    private int next = advance(0);

                    private int advance(int from) {
                        while (from < values.length && values[from] == null) from++;
                        return from;
                    }

                    @Override
                    public boolean hasNext() {
                        return next < values.length;
                    }

                    @Override
                    public Entry<String, FieldValue> next() {
                        if (next >= values.length) throw new NoSuchElementException();
                        Entry<String, FieldValue> entry = Map.entry(type.fieldAt(next).name(), values[next]);
                        next = advance(next + 1);
                        return entry;
                    }
                };
            }

            @Override
            public int size() {
                return size;
            }
        };
    }

}
