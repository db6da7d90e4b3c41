package io.sluice.document;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One operation on the value of a field, as in the {@code "fields"} object of a /document/v1 update body. Operations
 * are immutable data; {@link #check} tells whether one fits a field type, and {@link DocumentUpdate#applyTo} applies
 * them (semantics follow Vespa's document API, noted on each type).
 */
public sealed interface ValueUpdate permits ValueUpdate.Assign, ValueUpdate.Clear, ValueUpdate.AddElements,
        ValueUpdate.AddWeighted, ValueUpdate.RemoveValues, ValueUpdate.Arithmetic, ValueUpdate.Match, TensorAddUpdate,
        TensorRemoveUpdate, TensorModifyUpdate {

    /**
     * Throws {@link InvalidUpdateException} naming the operation and the type unless this operation can be applied
     * to values of {@code type}.
     */
    void check(DataType type);

    /** {@code assign}: replaces the value (an empty value clears the field). */
    record Assign(FieldValue value) implements ValueUpdate {
        public Assign {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public void check(DataType type) {
            if (!type.accepts(value))
                throw new InvalidUpdateException("Cannot assign " + value + " to a field of type " + type.typeName());
        }
    }

    /** {@code assign: null}: clears the field. */
    record Clear() implements ValueUpdate {
        @Override
        public void check(DataType type) {
        }
    }

    /** {@code add} on an array: appends the elements in order; a missing array starts empty. */
    record AddElements(List<FieldValue> elements) implements ValueUpdate {
        public AddElements {
            elements = List.copyOf(elements);
        }

        @Override
        public void check(DataType type) {
            if (!(type instanceof ArrayType))
                throw new InvalidUpdateException("Cannot add array elements to a field of type " + type.typeName());
            DataType elementType = ((ArrayType) type).elementType();
            for (FieldValue element : elements)
                if (!elementType.accepts(element))
                    throw new InvalidUpdateException("Cannot add " + element + " to " + type.typeName());
        }
    }

    /** {@code add} on a weighted set: adds each key, or replaces its weight; a missing set starts empty. */
    record AddWeighted(Map<FieldValue, Integer> weights) implements ValueUpdate {
        public AddWeighted {
            weights = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(weights));
        }

        @Override
        public void check(DataType type) {
            if (!(type instanceof WeightedSetType))
                throw new InvalidUpdateException("Cannot add weighted keys to a field of type " + type.typeName());
            DataType keyType = ((WeightedSetType) type).keyType();
            for (FieldValue key : weights.keySet())
                if (!keyType.accepts(key)) throw new InvalidUpdateException("Cannot add " + key + " to " + type.typeName());
        }
    }

    /**
     * {@code remove} on an array (removes every element equal to one of the values) or a weighted set (removes
     * the keys). Maps are not supported, as in Vespa: remove a map entry with the field path {@code m{key}}.
     */
    record RemoveValues(List<FieldValue> values) implements ValueUpdate {
        public RemoveValues {
            values = List.copyOf(values);
        }

        @Override
        public void check(DataType type) {
            DataType elementType;
            if (type instanceof ArrayType) elementType = ((ArrayType) type).elementType();
            else if (type instanceof WeightedSetType) elementType = ((WeightedSetType) type).keyType();
            else if (type instanceof MapType)
                throw new InvalidUpdateException("Cannot remove from a map field directly; use the field path "
                                                 + "'field{key}' with remove");
            else throw new InvalidUpdateException("Cannot remove values from a field of type " + type.typeName());
            for (FieldValue value : values)
                if (!elementType.accepts(value))
                    throw new InvalidUpdateException("Cannot remove " + value + " from " + type.typeName());
        }
    }

    /**
     * {@code increment}, {@code decrement}, {@code multiply}, {@code divide} on a number. As in Vespa, the
     * computation is done in double and converted back to the field's type with Java's narrowing rules, so dividing
     * an int by zero gives {@link Integer#MAX_VALUE} (or 0 for 0/0) and a double becomes infinite (or NaN). A missing
     * field counts as 0.
     */
    record Arithmetic(Operator operator, double operand) implements ValueUpdate {

        /** The four operators, named as in update JSON. */
        public enum Operator {
            INCREMENT("increment"), DECREMENT("decrement"), MULTIPLY("multiply"), DIVIDE("divide");

            private final String jsonName;

            Operator(String jsonName) {
                this.jsonName = jsonName;
            }

            /** The name of this operator in update JSON. */
            public String jsonName() {
                return jsonName;
            }

            /** The operator with this update-JSON name (case-insensitive), if any. */
            public static java.util.Optional<Operator> fromJsonName(String name) {
                for (Operator operator : values())
                    if (operator.jsonName.equalsIgnoreCase(name)) return java.util.Optional.of(operator);
                return java.util.Optional.empty();
            }

            double apply(double value, double operand) {
                switch (this) {
                    case INCREMENT: return value + operand;
                    case DECREMENT: return value - operand;
                    case MULTIPLY: return value * operand;
                    case DIVIDE: return value / operand;
                    default: throw new AssertionError(this);
                }
            }
        }

        public Arithmetic {
            Objects.requireNonNull(operator, "operator");
        }

        @Override
        public void check(DataType type) {
            if (!(type instanceof PrimitiveType) || !((PrimitiveType) type).isNumeric())
                throw new InvalidUpdateException("Cannot " + operator.jsonName() + " a field of type " + type.typeName()
                                                 + "; arithmetic needs a numeric field");
        }

        /** The result of applying this to {@code value}. */
        public double apply(double value) {
            return operator.apply(value, operand);
        }
    }

    /**
     * {@code match}: applies {@code update} to one element: the array element at index {@code key} (an
     * {@link IntValue}; ignored if out of range), the weight of weighted-set key {@code key}, or the value of map key
     * {@code key}. A missing weighted-set key is ignored unless the set type has {@code create-if-nonexistent} and the
     * update is arithmetic (it then starts at 0); with {@code remove-if-zero}, arithmetic that ends at weight 0
     * removes the key. A missing map key is ignored unless the update is an assign. Clearing an element removes it.
     */
    record Match(FieldValue key, ValueUpdate update) implements ValueUpdate {
        public Match {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(update, "update");
        }

        @Override
        public void check(DataType type) {
            if (type instanceof ArrayType) {
                if (!(key instanceof IntValue))
                    throw new InvalidUpdateException("An array element is matched by an int index, not " + key);
                update.check(((ArrayType) type).elementType());
            } else if (type instanceof WeightedSetType) {
                if (!((WeightedSetType) type).keyType().accepts(key))
                    throw new InvalidUpdateException("Key " + key + " does not fit " + type.typeName());
                if (!(update instanceof Assign || update instanceof Arithmetic || update instanceof Clear))
                    throw new InvalidUpdateException("A weighted set weight can only be assigned or changed "
                                                     + "arithmetically");
                update.check(PrimitiveType.INT);
            } else if (type instanceof MapType) {
                if (!((MapType) type).keyType().accepts(key))
                    throw new InvalidUpdateException("Key " + key + " does not fit " + type.typeName());
                update.check(((MapType) type).valueType());
            } else {
                throw new InvalidUpdateException("Cannot match elements of a field of type " + type.typeName()
                                                 + "; match needs an array, weighted set or map");
            }
        }
    }
}
