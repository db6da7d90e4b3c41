package io.sluice.document;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The semantics of value and field-path updates. Values are passed and returned nullable here, and only here:
 * {@code null} means "not set", both for a missing current value and for a result that clears the field.
 */
final class UpdateApplier {

    private UpdateApplier() {
    }

    /** The value after applying {@code update} to {@code current} (null if missing), or null if cleared. */
    static FieldValue apply(ValueUpdate update, FieldValue current, DataType type) {
        if (update instanceof ValueUpdate.Assign) return ((ValueUpdate.Assign) update).value();
        if (update instanceof ValueUpdate.Clear) return null;
        if (update instanceof ValueUpdate.AddElements) {
            List<FieldValue> elements = ((ValueUpdate.AddElements) update).elements();
            return current == null ? new ArrayValue(elements) : ((ArrayValue) current).withAdded(elements);
        }
        if (update instanceof ValueUpdate.AddWeighted) {
            WeightedSetValue set = current == null ? WeightedSetValue.EMPTY : (WeightedSetValue) current;
            for (Map.Entry<FieldValue, Integer> entry : ((ValueUpdate.AddWeighted) update).weights().entrySet())
                set = set.with(entry.getKey(), entry.getValue());
            return set;
        }
        if (update instanceof ValueUpdate.RemoveValues) return remove((ValueUpdate.RemoveValues) update, current);
        if (update instanceof ValueUpdate.Arithmetic) {
            double value = current == null ? 0 : ((NumericValue) current).doubleValue();
            return NumericValue.arithmeticResult((PrimitiveType) type, ((ValueUpdate.Arithmetic) update).apply(value));
        }
        if (update instanceof ValueUpdate.Match) return match((ValueUpdate.Match) update, current, type);
        if (update instanceof TensorAddUpdate) return tensorAdd((TensorAddUpdate) update, (TensorValue) current);
        if (update instanceof TensorRemoveUpdate) return tensorRemove((TensorRemoveUpdate) update, (TensorValue) current);
        if (update instanceof TensorModifyUpdate)
            return tensorModify((TensorModifyUpdate) update, (TensorValue) current, (TensorType) type);
        throw new IllegalStateException("Unhandled update " + update);
    }

    private static FieldValue remove(ValueUpdate.RemoveValues update, FieldValue current) {
        if (current == null) return null;
        if (current instanceof ArrayValue) return ((ArrayValue) current).withoutAll(update.values());
        WeightedSetValue set = (WeightedSetValue) current;
        for (FieldValue key : update.values()) set = set.without(key);
        return set;
    }

    private static FieldValue match(ValueUpdate.Match match, FieldValue current, DataType type) {
        if (type instanceof ArrayType) {
            if (current == null) return null;
            ArrayValue array = (ArrayValue) current;
            int index = ((IntValue) match.key()).value();
            if (index < 0 || index >= array.size()) return current;
            FieldValue element = apply(match.update(), array.elements().get(index), ((ArrayType) type).elementType());
            return element == null ? array.withoutElement(index) : array.withElement(index, element);
        }
        if (type instanceof WeightedSetType) return matchWeight(match, (WeightedSetValue) current, (WeightedSetType) type);
        MapValue map = current == null ? MapValue.EMPTY : (MapValue) current;
        FieldValue value = map.get(match.key());
        if (value == null && !(match.update() instanceof ValueUpdate.Assign)) return current;
        FieldValue updated = apply(match.update(), value, ((MapType) type).valueType());
        return updated == null ? map.without(match.key()) : map.with(match.key(), updated);
    }

    private static FieldValue matchWeight(ValueUpdate.Match match, WeightedSetValue current, WeightedSetType type) {
        WeightedSetValue set = current == null ? WeightedSetValue.EMPTY : current;
        boolean arithmetic = match.update() instanceof ValueUpdate.Arithmetic;
        Integer weight = set.weight(match.key());
        if (weight == null) {
            if (!(arithmetic && type.createIfNonExistent())) return current;
            weight = 0;
        }
        FieldValue updated = apply(match.update(), new IntValue(weight), PrimitiveType.INT);
        if (updated == null) return set.without(match.key());
        int newWeight = ((IntValue) updated).value();
        if (arithmetic && type.removeIfZero() && newWeight == 0) return set.without(match.key());
        return set.with(match.key(), newWeight);
    }

    private static FieldValue tensorAdd(TensorAddUpdate update, TensorValue current) {
        TensorValue cells = update.cells();
        if (current == null) return cells;
        TensorValue.Builder builder = current.toBuilder();
        int subspace = cells.type().denseSubspaceSize();
        for (List<String> address : cells.blockAddresses()) {
            double[] block = new double[subspace];
            for (int offset = 0; offset < subspace; offset++) block[offset] = cells.blockCell(address, offset);
            builder.block(address, block);
        }
        return builder.build();
    }

    private static FieldValue tensorRemove(TensorRemoveUpdate update, TensorValue current) {
        if (current == null) return null;
        TensorValue.Builder builder = current.toBuilder();
        for (List<String> address : current.blockAddresses())
            if (update.removes(current.type(), address)) builder.removeBlock(address);
        return builder.build();
    }

    private static FieldValue tensorModify(TensorModifyUpdate update, TensorValue current, TensorType type) {
        if (current == null && !update.create()) return null;
        TensorValue.Builder builder = current == null ? TensorValue.builder(type) : current.toBuilder();
        for (TensorModifyUpdate.Cell cell : update.cells()) {
            List<String> address = TensorModifyUpdate.addressInTypeOrder(type, cell);
            OptionalDouble existing = current == null ? OptionalDouble.empty() : current.cell(address);
            if (existing.isEmpty() && !update.create()) continue;
            double before = existing.isPresent() ? existing.getAsDouble() : update.operation().createdDefault();
            builder.cell(address, update.operation().apply(before, cell.value()));
        }
        return builder.build();
    }

    /** The top-level field's value after applying a field-path update to it (null if missing or removed). */
    static FieldValue apply(FieldPathUpdate update, FieldValue current) {
        return step(update, current, 0);
    }

    private static FieldValue step(FieldPathUpdate update, FieldValue current, int index) {
        FieldPath path = update.path();
        if (index == path.steps().size()) return leaf(update.operation(), current, path.resultType());
        boolean creates = update.operation() instanceof FieldPathUpdate.Assign
                          || update.operation() instanceof FieldPathUpdate.Add;
        FieldPath.Step step = path.steps().get(index);
        if (step instanceof FieldPath.StructField) {
            if (current == null && !creates) return null;
            StructValue struct = current == null ? StructValue.EMPTY : (StructValue) current;
            String name = ((FieldPath.StructField) step).name();
            FieldValue child = struct.get(name);
            FieldValue updated = step(update, child, index + 1);
            if (updated == child) return current;
            return updated == null ? struct.without(name) : struct.with(name, updated);
        }
        if (step instanceof FieldPath.Index) {
            if (current == null) return null;
            ArrayValue array = (ArrayValue) current;
            int element = ((FieldPath.Index) step).index();
            if (element >= array.size()) return current;
            FieldValue child = array.elements().get(element);
            FieldValue updated = step(update, child, index + 1);
            if (updated == child) return current;
            return updated == null ? array.withoutElement(element) : array.withElement(element, updated);
        }
        FieldValue key = ((FieldPath.Key) step).key();
        if (path.typeAt(index) instanceof WeightedSetType) {
            if (current == null && !creates) return null;
            WeightedSetValue set = current == null ? WeightedSetValue.EMPTY : (WeightedSetValue) current;
            Integer weight = set.weight(key);
            FieldValue child = weight == null ? null : new IntValue(weight);
            FieldValue updated = step(update, child, index + 1);
            if (updated == null) return weight == null ? current : set.without(key);
            return set.with(key, ((IntValue) updated).value());
        }
        if (current == null && !creates) return null;
        MapValue map = current == null ? MapValue.EMPTY : (MapValue) current;
        FieldValue child = map.get(key);
        if (child == null && !creates) return current;
        FieldValue updated = step(update, child, index + 1);
        if (updated == child) return current;
        return updated == null ? map.without(key) : map.with(key, updated);
    }

    private static FieldValue leaf(FieldPathUpdate.Operation operation, FieldValue current, DataType type) {
        if (operation instanceof FieldPathUpdate.Assign) {
            FieldValue value = ((FieldPathUpdate.Assign) operation).value();
            return value.isEmpty() ? null : value;
        }
        if (operation instanceof FieldPathUpdate.Add) {
            List<FieldValue> elements = ((FieldPathUpdate.Add) operation).elements().elements();
            return current == null ? new ArrayValue(elements) : ((ArrayValue) current).withAdded(elements);
        }
        if (operation instanceof FieldPathUpdate.Remove) return null;
        if (current == null) return null;
        FieldPathUpdate.Arithmetic arithmetic = (FieldPathUpdate.Arithmetic) operation;
        double value = arithmetic.operator().apply(((NumericValue) current).doubleValue(), arithmetic.operand());
        return NumericValue.arithmeticResult((PrimitiveType) type, value);
    }
}
