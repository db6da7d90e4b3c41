package io.sluice.document;

import java.util.List;
import java.util.Map;

/**
 * {@code remove} on a tensor with mapped dimensions: removes every dense subspace whose mapped labels match one of
 * the addresses. An address names mapped dimensions only, and may leave some out (then it matches any label there).
 */
public record TensorRemoveUpdate(List<Map<String, String>> addresses) implements ValueUpdate {

    public TensorRemoveUpdate {
        addresses = addresses.stream().map(Map::copyOf).collect(java.util.stream.Collectors.toUnmodifiableList());
    }

    @Override
    public void check(DataType type) {
        if (!(type instanceof TensorType))
            throw new InvalidUpdateException("Cannot remove tensor cells from a field of type " + type.typeName());
        TensorType tensorType = (TensorType) type;
        if (tensorType.mappedDimensions().isEmpty())
            throw new InvalidUpdateException("Cannot remove cells from " + type.typeName()
                                             + ": remove needs a tensor with at least one mapped dimension");
        for (Map<String, String> address : addresses) {
            if (address.isEmpty()) throw new InvalidUpdateException("A tensor remove address names no dimension");
            for (String dimension : address.keySet()) {
                TensorType.Dimension found = tensorType.dimension(dimension).orElseThrow(() -> new InvalidUpdateException(
                        "Dimension '" + dimension + "' of remove address " + address + " is not in " + type.typeName()));
                if (found.isIndexed())
                    throw new InvalidUpdateException("Remove address " + address + " names indexed dimension '"
                                                     + dimension + "'; only mapped dimensions can be given");
            }
        }
    }

    /** Whether this update removes the block at {@code mappedAddress} (labels in the type's mapped order). */
    boolean removes(TensorType type, List<String> mappedAddress) {
        List<TensorType.Dimension> mapped = type.mappedDimensions();
        for (Map<String, String> address : addresses) {
            boolean matches = true;
            for (int i = 0; i < mapped.size() && matches; i++) {
                String label = address.get(mapped.get(i).name());
                matches = label == null || label.equals(mappedAddress.get(i));
            }
            if (matches) return true;
        }
        return false;
    }
}
