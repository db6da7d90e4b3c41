package io.sluice.document;

/**
 * A value of a document field. All values are immutable; collection values offer cheap {@code with...} operations
 * that return a modified copy, so updates can be applied without mutating shared documents.
 * Values do not carry their {@link DataType} (except tensors); the field's type gives it.
 */
public sealed interface FieldValue permits NumericValue, StringValue, BoolValue, RawValue, UriValue, PredicateValue,
        PositionValue, ReferenceValue, ArrayValue, WeightedSetValue, MapValue, StructValue, TensorValue {

    /**
     * Whether this value counts as "not set": an empty string, collection or struct. Empty values are not stored
     * in documents and not rendered.
     */
    default boolean isEmpty() {
        return false;
    }
}
