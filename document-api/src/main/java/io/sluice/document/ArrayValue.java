package io.sluice.document;

import java.util.ArrayList;
import java.util.List;

/** An {@code array<T>} value; an empty array counts as not set. */
public record ArrayValue(List<FieldValue> elements) implements FieldValue {

    public static final ArrayValue EMPTY = new ArrayValue(List.of());

    /** Copies the list; null elements are rejected with a {@link NullPointerException}. */
    public ArrayValue {
        elements = List.copyOf(elements);
    }

    public static ArrayValue of(FieldValue... elements) {
        return new ArrayValue(List.of(elements));
    }

    public int size() {
        return elements.size();
    }

    /** This array with the given elements appended. */
    public ArrayValue withAdded(List<FieldValue> added) {
        List<FieldValue> result = new ArrayList<>(elements.size() + added.size());
        result.addAll(elements);
        result.addAll(added);
        return new ArrayValue(result);
    }

    /** This array with element {@code index} replaced; throws {@link DocumentException} if out of range. */
    public ArrayValue withElement(int index, FieldValue value) {
        checkIndex(index);
        List<FieldValue> result = new ArrayList<>(elements);
        result.set(index, value);
        return new ArrayValue(result);
    }

    /** This array without element {@code index}; throws {@link DocumentException} if out of range. */
    public ArrayValue withoutElement(int index) {
        checkIndex(index);
        List<FieldValue> result = new ArrayList<>(elements);
        result.remove(index);
        return new ArrayValue(result);
    }

    /** This array without any element equal to one of {@code removed}. */
    public ArrayValue withoutAll(List<FieldValue> removed) {
        List<FieldValue> result = new ArrayList<>(elements);
        result.removeAll(removed);
        return new ArrayValue(result);
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= elements.size())
            throw new InvalidDocumentException("Array index " + index + " is out of range; the array has " + elements.size()
                                        + " elements");
    }

    @Override
    public boolean isEmpty() {
        return elements.isEmpty();
    }

    @Override
    public String toString() {
        return elements.toString();
    }
}
