package io.sluice.document;

/**
 * The type of a field: a primitive, a collection, a struct, a tensor or a reference.
 * Types are immutable values; two types are equal when they describe the same values.
 */
public sealed interface DataType permits PrimitiveType, ArrayType, WeightedSetType, MapType, StructType, TensorType,
        ReferenceType {

    /** This type as written in a schema, e.g. {@code array<string>} or {@code tensor<float>(x[4])}. */
    String typeName();

    /** Whether the given value is a valid value of this type (checked deeply for collections and structs). */
    boolean accepts(FieldValue value);
}
