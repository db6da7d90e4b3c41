package io.sluice.document;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * A tensor value of a {@link TensorType}. Cells are kept as dense blocks, one per combination of mapped labels
 * (the "mapped address", labels in the order of {@link TensorType#mappedDimensions()}); a block holds
 * {@link TensorType#denseSubspaceSize()} cells in row-major order over the indexed dimensions. A tensor with only
 * indexed dimensions has exactly one block, under the empty address; missing dense cells are 0.
 * Cell values are stored rounded to the type's cell type.
 */
public final class TensorValue implements FieldValue {

    /** Receives one cell: its full address (one label per dimension, in type order) and its value. */
    @FunctionalInterface
    public interface CellConsumer {
        void accept(List<String> address, double value);
    }

    private final TensorType type;
    private final Map<List<String>, double[]> blocks;

    private TensorValue(TensorType type, Map<List<String>, double[]> blocks) {
        this.type = type;
        this.blocks = blocks;
    }

    public static Builder builder(TensorType type) {
        return new Builder(type, new LinkedHashMap<>());
    }

    /** A tensor with only indexed dimensions holding these cells (row-major; rounded to the cell type). */
    public static TensorValue dense(TensorType type, double... values) {
        return builder(type).block(List.of(), values).build();
    }

    /** A builder holding a copy of this tensor's cells. */
    public Builder toBuilder() {
        Map<List<String>, double[]> copy = new LinkedHashMap<>();
        blocks.forEach((address, block) -> copy.put(address, block.clone()));
        return new Builder(type, copy);
    }

    public TensorType type() {
        return type;
    }

    /** The mapped addresses that have a block, in insertion order. */
    public Set<List<String>> blockAddresses() {
        return Collections.unmodifiableSet(blocks.keySet());
    }

    /** Cell {@code offset} (row-major over the indexed dimensions) of the block at {@code mappedAddress}. */
    public double blockCell(List<String> mappedAddress, int offset) {
        double[] block = blocks.get(mappedAddress);
        if (block == null) throw new InvalidDocumentException("Tensor has no cells at " + mappedAddress);
        return block[offset];
    }

    /** The value of the cell at this full address, or empty if the tensor has no such cell. */
    public OptionalDouble cell(List<String> address) {
        Objects.requireNonNull(address, "address");
        if (address.size() != type.dimensions().size()) return OptionalDouble.empty();
        List<String> mapped = new ArrayList<>(type.mappedDimensions().size());
        int offset = 0;
        for (int i = 0; i < address.size(); i++) {
            TensorType.Dimension dimension = type.dimensions().get(i);
            if (!dimension.isIndexed()) {
                mapped.add(address.get(i));
                continue;
            }
            int index = parseIndexOrMinusOne(address.get(i));
            if (index < 0 || index >= dimension.size()) return OptionalDouble.empty();
            offset = offset * dimension.size() + index;
        }
        double[] block = blocks.get(mapped);
        return block == null ? OptionalDouble.empty() : OptionalDouble.of(block[offset]);
    }

    /** Number of cells (blocks times dense subspace size). */
    public int cellCount() {
        return blocks.size() * type.denseSubspaceSize();
    }

    /** Calls {@code consumer} for every cell, block by block, indexed labels as decimal strings. */
    public void forEachCell(CellConsumer consumer) {
        List<TensorType.Dimension> dimensions = type.dimensions();
        String[] address = new String[dimensions.size()];
        int subspace = type.denseSubspaceSize();
        for (Map.Entry<List<String>, double[]> entry : blocks.entrySet()) {
            int mappedIndex = 0;
            for (int i = 0; i < dimensions.size(); i++)
                if (!dimensions.get(i).isIndexed()) address[i] = entry.getKey().get(mappedIndex++);
            for (int offset = 0; offset < subspace; offset++) {
                int rest = offset;
                for (int i = dimensions.size() - 1; i >= 0; i--) {
                    TensorType.Dimension dimension = dimensions.get(i);
                    if (!dimension.isIndexed()) continue;
                    address[i] = Integer.toString(rest % dimension.size());
                    rest /= dimension.size();
                }
                consumer.accept(List.of(address), entry.getValue()[offset]);
            }
        }
    }

    static int parseIndexOrMinusOne(String label) {
        if (label.isEmpty() || label.length() > 9) return -1;
        int value = 0;
        for (int i = 0; i < label.length(); i++) {
            char c = label.charAt(i);
            if (c < '0' || c > '9') return -1;
            value = value * 10 + (c - '0');
        }
        return value;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) return true;
        if (!(o instanceof TensorValue)) return false;
        TensorValue other = (TensorValue) o;
        if (!type.equals(other.type) || blocks.size() != other.blocks.size()) return false;
        for (Map.Entry<List<String>, double[]> entry : blocks.entrySet())
            if (!Arrays.equals(entry.getValue(), other.blocks.get(entry.getKey()))) return false;
        return true;
    }

    @Override
    public int hashCode() {
        int hash = type.hashCode();
        for (Map.Entry<List<String>, double[]> entry : blocks.entrySet())
            hash += entry.getKey().hashCode() ^ Arrays.hashCode(entry.getValue());
        return hash;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder(type.typeName()).append(":{");
        forEachCell((address, value) -> text.append(text.charAt(text.length() - 1) == '{' ? "" : ",")
                                            .append(address).append(':').append(value));
        return text.append('}').toString();
    }

    /** Collects cells for a tensor; not thread-safe. Every method throws {@link DocumentException} on bad input. */
    public static final class Builder {

        private final TensorType type;
        private final Map<List<String>, double[]> blocks;

        private Builder(TensorType type, Map<List<String>, double[]> blocks) {
            this.type = Objects.requireNonNull(type, "type");
            this.blocks = blocks;
        }

        public TensorType type() {
            return type;
        }

        /** Sets the cell at this full address (one label per dimension, in type order). */
        public Builder cell(List<String> address, double value) {
            if (address.size() != type.dimensions().size())
                throw new InvalidDocumentException("Address " + address + " does not fit tensor type " + type);
            List<String> mapped = new ArrayList<>(type.mappedDimensions().size());
            int offset = 0;
            for (int i = 0; i < address.size(); i++) {
                TensorType.Dimension dimension = type.dimensions().get(i);
                String label = Objects.requireNonNull(address.get(i), "label");
                if (!dimension.isIndexed()) {
                    mapped.add(label);
                    continue;
                }
                offset = offset * dimension.size() + index(dimension, label);
            }
            blockFor(List.copyOf(mapped))[offset] = type.cellType().round(value);
            return this;
        }

        /** Sets the cell with these labels, given per dimension name. */
        public Builder cell(Map<String, String> labels, double value) {
            if (labels.size() != type.dimensions().size())
                throw new InvalidDocumentException("Address " + labels + " does not fit tensor type " + type);
            String[] address = new String[type.dimensions().size()];
            for (Map.Entry<String, String> label : labels.entrySet()) {
                int index = type.indexOf(label.getKey());
                if (index < 0)
                    throw new InvalidDocumentException("Dimension '" + label.getKey() + "' is not in tensor type " + type);
                address[index] = label.getValue();
            }
            return cell(Arrays.asList(address), value);
        }

        /** Sets all cells of the block at {@code mappedAddress}; {@code values} must have the dense subspace size. */
        public Builder block(List<String> mappedAddress, double[] values) {
            if (mappedAddress.size() != type.mappedDimensions().size())
                throw new InvalidDocumentException("Mapped address " + mappedAddress + " does not fit tensor type " + type);
            if (values.length != type.denseSubspaceSize())
                throw new InvalidDocumentException("Expected " + type.denseSubspaceSize() + " cell values for tensor type "
                                            + type + ", got " + values.length);
            double[] block = new double[values.length];
            for (int i = 0; i < values.length; i++) block[i] = type.cellType().round(values[i]);
            blocks.put(List.copyOf(mappedAddress), block);
            return this;
        }

        /** Removes the block at {@code mappedAddress}, if present. */
        public Builder removeBlock(List<String> mappedAddress) {
            blocks.remove(mappedAddress);
            return this;
        }

        public TensorValue build() {
            Map<List<String>, double[]> result = new LinkedHashMap<>();
            blocks.forEach((address, block) -> result.put(address, block.clone()));
            if (type.mappedDimensions().isEmpty() && result.isEmpty())
                result.put(List.of(), new double[type.denseSubspaceSize()]);
            return new TensorValue(type, result);
        }

        private double[] blockFor(List<String> mappedAddress) {
            return blocks.computeIfAbsent(mappedAddress, address -> new double[type.denseSubspaceSize()]);
        }

        private static int index(TensorType.Dimension dimension, String label) {
            int index = parseIndexOrMinusOne(label);
            if (index < 0 || index >= dimension.size())
                throw new InvalidDocumentException("Label '" + label + "' is not a valid index for dimension " + dimension);
            return index;
        }
    }
}
