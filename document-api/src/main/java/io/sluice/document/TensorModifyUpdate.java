package io.sluice.document;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code modify} on a tensor: combines existing cells with the given ones by {@code operation}. Cells the tensor
 * does not have are ignored, unless {@code create} is set: then they are created from a default of 0 (replace, add)
 * or 1 (multiply) before the operation. A missing tensor is left missing unless {@code create} is set.
 */
public record TensorModifyUpdate(Operation operation, List<Cell> cells, boolean create) implements ValueUpdate {

    /** How a given cell value is combined with the existing one. */
    public enum Operation {
        REPLACE("replace", 0), ADD("add", 0), MULTIPLY("multiply", 1);

        private final String jsonName;
        private final double createdDefault;

        Operation(String jsonName, double createdDefault) {
            this.jsonName = jsonName;
            this.createdDefault = createdDefault;
        }

        /** The name of this operation in update JSON. */
        public String jsonName() {
            return jsonName;
        }

        /** The operation with this update-JSON name, if any. */
        public static java.util.Optional<Operation> fromJsonName(String name) {
            for (Operation operation : values())
                if (operation.jsonName.equals(name)) return java.util.Optional.of(operation);
            return java.util.Optional.empty();
        }

        /** The value a created cell holds before the operation. */
        double createdDefault() {
            return createdDefault;
        }

        double apply(double existing, double given) {
            switch (this) {
                case REPLACE: return given;
                case ADD: return existing + given;
                case MULTIPLY: return existing * given;
                default: throw new AssertionError(this);
            }
        }
    }

    /** One cell: a label for every dimension of the tensor type, by dimension name, and a value. */
    public record Cell(Map<String, String> address, double value) {
        public Cell {
            address = Map.copyOf(address);
        }
    }

    public TensorModifyUpdate {
        Objects.requireNonNull(operation, "operation");
        cells = List.copyOf(cells);
    }

    @Override
    public void check(DataType type) {
        if (!(type instanceof TensorType))
            throw new InvalidUpdateException("Cannot modify tensor cells of a field of type " + type.typeName());
        TensorType tensorType = (TensorType) type;
        for (Cell cell : cells) {
            if (cell.address().size() != tensorType.dimensions().size())
                throw new InvalidUpdateException("Modify address " + cell.address() + " must give a label for every "
                                                 + "dimension of " + type.typeName());
            for (Map.Entry<String, String> label : cell.address().entrySet()) {
                TensorType.Dimension dimension = tensorType.dimension(label.getKey()).orElseThrow(() ->
                        new InvalidUpdateException("Dimension '" + label.getKey() + "' of modify address "
                                                   + cell.address() + " is not in " + type.typeName()));
                if (dimension.isIndexed()) {
                    int index = TensorValue.parseIndexOrMinusOne(label.getValue());
                    if (index < 0 || index >= dimension.size())
                        throw new InvalidUpdateException("Label '" + label.getValue() + "' is not a valid index for "
                                                         + "dimension " + dimension + " of " + type.typeName());
                }
            }
        }
    }

    /** A cell's address as a label list in the type's dimension order. */
    static List<String> addressInTypeOrder(TensorType type, Cell cell) {
        String[] labels = new String[type.dimensions().size()];
        for (int i = 0; i < labels.length; i++) labels[i] = cell.address().get(type.dimensions().get(i).name());
        return List.of(labels);
    }
}
