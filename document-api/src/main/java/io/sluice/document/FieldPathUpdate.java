package io.sluice.document;

import java.util.Objects;

/**
 * An update of the value a {@link FieldPath} reaches, from an update-body key such as {@code "contact.first_name"},
 * {@code "m{key}"} or {@code "arr[3]"}. Assign and add create missing struct fields and map entries on the way (a
 * missing weighted-set key is created by assign); an array index out of range, and for remove and arithmetic any
 * missing part of the path, leave the document unchanged.
 */
public record FieldPathUpdate(FieldPath path, Operation operation) {

    /** What is done at the end of the path. */
    public sealed interface Operation permits Assign, Add, Remove, Arithmetic {
    }

    /** {@code assign}: sets the value (an empty value removes it). */
    public record Assign(FieldValue value) implements Operation {
        public Assign {
            Objects.requireNonNull(value, "value");
        }
    }

    /** {@code add}: appends the elements to the array the path reaches (a missing array starts empty). */
    public record Add(ArrayValue elements) implements Operation {
        public Add {
            Objects.requireNonNull(elements, "elements");
        }
    }

    /** {@code remove}: removes the struct field, map entry, weighted-set key or array element. */
    public record Remove() implements Operation {
    }

    /** {@code increment} etc.: arithmetic on the number the path reaches, if present (Vespa's {@code $value op n}). */
    public record Arithmetic(ValueUpdate.Arithmetic.Operator operator, double operand) implements Operation {
        public Arithmetic {
            Objects.requireNonNull(operator, "operator");
        }
    }

    /** Throws {@link InvalidUpdateException} naming the path if the operation does not fit what it reaches. */
    public FieldPathUpdate {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(operation, "operation");
        DataType type = path.resultType();
        if (operation instanceof Assign && !type.accepts(((Assign) operation).value()))
            throw new InvalidUpdateException("Cannot assign " + ((Assign) operation).value() + " to '" + path
                                             + "' of type " + type.typeName());
        if (operation instanceof Add && !(type instanceof ArrayType && type.accepts(((Add) operation).elements())))
            throw new InvalidUpdateException("Cannot add " + ((Add) operation).elements() + " to '" + path
                                             + "' of type " + type.typeName() + "; add needs an array");
        if (operation instanceof Arithmetic && !(type instanceof PrimitiveType && ((PrimitiveType) type).isNumeric()))
            throw new InvalidUpdateException("Cannot " + ((Arithmetic) operation).operator().jsonName() + " '" + path
                                             + "' of type " + type.typeName() + "; arithmetic needs a number");
    }
}
