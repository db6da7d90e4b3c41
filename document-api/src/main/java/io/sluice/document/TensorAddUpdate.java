package io.sluice.document;

import java.util.Objects;

/**
 * {@code add} on a tensor with mapped dimensions: puts every dense subspace (block) of {@code cells} into the tensor,
 * replacing a block already at that mapped address. Indexed cells the JSON did not give are 0. A missing tensor
 * starts empty.
 */
public record TensorAddUpdate(TensorValue cells) implements ValueUpdate {

    public TensorAddUpdate {
        Objects.requireNonNull(cells, "cells");
    }

    @Override
    public void check(DataType type) {
        if (!(type instanceof TensorType))
            throw new InvalidUpdateException("Cannot add tensor cells to a field of type " + type.typeName());
        if (((TensorType) type).mappedDimensions().isEmpty())
            throw new InvalidUpdateException("Cannot add cells to " + type.typeName()
                                             + ": add needs a tensor with at least one mapped dimension");
        if (!cells.type().equals(type))
            throw new InvalidUpdateException("Cannot add cells of " + cells.type() + " to a field of type " + type);
    }
}
