package io.sluice.document;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A tensor type such as {@code tensor<float>(x[4])}, {@code tensor(key{})} or {@code tensor(a{},x[3])}.
 * Dimensions are kept sorted by name, as in Vespa's canonical form; cells of a tensor are addressed by one label
 * per dimension in that order. Indexed dimensions have a size; mapped ones take any label.
 */
public final class TensorType implements DataType {

    /** One dimension: mapped ({@code name{}}) when {@code size} is 0, otherwise indexed {@code name[size]}. */
    public record Dimension(String name, int size) {

        public Dimension {
            Objects.requireNonNull(name, "name");
            if (size < 0) throw new InvalidDocumentException("Dimension '" + name + "' has negative size " + size);
        }

        public static Dimension mapped(String name) {
            return new Dimension(name, 0);
        }

        public static Dimension indexed(String name, int size) {
            if (size < 1) throw new InvalidDocumentException("Indexed dimension '" + name + "' must have a size of at least 1");
            return new Dimension(name, size);
        }

        public boolean isIndexed() {
            return size > 0;
        }

        @Override
        public String toString() {
            return isIndexed() ? name + "[" + size + "]" : name + "{}";
        }
    }

    private final TensorCellType cellType;
    private final List<Dimension> dimensions;
    private final List<Dimension> mappedDimensions;
    private final List<Dimension> indexedDimensions;
    private final int denseSubspaceSize;
    private final String spec;

    private TensorType(TensorCellType cellType, List<Dimension> dimensions) {
        List<Dimension> sorted = new ArrayList<>(dimensions);
        sorted.sort(Comparator.comparing(Dimension::name));
        for (int i = 1; i < sorted.size(); i++)
            if (sorted.get(i).name().equals(sorted.get(i - 1).name()))
                throw new InvalidDocumentException("Dimension '" + sorted.get(i).name() + "' is declared twice");
        this.cellType = cellType;
        this.dimensions = List.copyOf(sorted);
        List<Dimension> mapped = new ArrayList<>();
        List<Dimension> indexed = new ArrayList<>();
        long size = 1;
        for (Dimension dimension : this.dimensions) {
            if (dimension.isIndexed()) {
                indexed.add(dimension);
                size *= dimension.size();
                if (size > Integer.MAX_VALUE) throw new InvalidDocumentException("Tensor type has too many indexed cells");
            } else {
                mapped.add(dimension);
            }
        }
        this.mappedDimensions = List.copyOf(mapped);
        this.indexedDimensions = List.copyOf(indexed);
        this.denseSubspaceSize = (int) size;
        StringBuilder text = new StringBuilder("tensor");
        if (cellType != TensorCellType.DOUBLE) text.append('<').append(cellType.schemaName()).append('>');
        text.append('(');
        for (int i = 0; i < this.dimensions.size(); i++) text.append(i > 0 ? "," : "").append(this.dimensions.get(i));
        this.spec = text.append(')').toString();
    }

    /** A tensor type with these dimensions (any order); throws {@link DocumentException} if none or repeated. */
    public static TensorType of(TensorCellType cellType, List<Dimension> dimensions) {
        if (dimensions.isEmpty()) throw new InvalidDocumentException("A tensor type needs at least one dimension");
        return new TensorType(Objects.requireNonNull(cellType, "cellType"), dimensions);
    }

    /** Parses a spec like {@code tensor<float>(x[4],y{})}; throws {@link DocumentException} naming the spec if bad. */
    public static TensorType parse(String spec) {
        return new SpecParser(spec).parse();
    }

    public TensorCellType cellType() {
        return cellType;
    }

    /** All dimensions, sorted by name. */
    public List<Dimension> dimensions() {
        return dimensions;
    }

    /** The mapped dimensions, sorted by name. */
    public List<Dimension> mappedDimensions() {
        return mappedDimensions;
    }

    /** The indexed dimensions, sorted by name. */
    public List<Dimension> indexedDimensions() {
        return indexedDimensions;
    }

    /** The number of cells for one combination of mapped labels: the product of the indexed sizes (1 if none). */
    public int denseSubspaceSize() {
        return denseSubspaceSize;
    }

    public Optional<Dimension> dimension(String name) {
        for (Dimension dimension : dimensions)
            if (dimension.name().equals(name)) return Optional.of(dimension);
        return Optional.empty();
    }

    /** The index of the named dimension in {@link #dimensions()}, or -1. */
    public int indexOf(String dimensionName) {
        for (int i = 0; i < dimensions.size(); i++)
            if (dimensions.get(i).name().equals(dimensionName)) return i;
        return -1;
    }

    @Override
    public String typeName() {
        return spec;
    }

    @Override
    public boolean accepts(FieldValue value) {
        return value instanceof TensorValue && ((TensorValue) value).type().equals(this);
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof TensorType && ((TensorType) o).spec.equals(spec);
    }

    @Override
    public int hashCode() {
        return spec.hashCode();
    }

    @Override
    public String toString() {
        return spec;
    }

    private static final class SpecParser {

        private final String spec;
        private int position;

        SpecParser(String spec) {
            this.spec = Objects.requireNonNull(spec, "spec");
        }

        TensorType parse() {
            expectWord("tensor");
            TensorCellType cellType = TensorCellType.DOUBLE;
            skipSpaces();
            if (peek() == '<') {
                position++;
                String name = identifier();
                try {
                    cellType = TensorCellType.fromSchemaName(name);
                } catch (DocumentException e) {
                    throw fail(e.getMessage());
                }
                expect('>');
            }
            expect('(');
            List<Dimension> dimensions = new ArrayList<>();
            skipSpaces();
            if (peek() != ')') {
                do {
                    dimensions.add(dimension());
                    skipSpaces();
                } while (peek() == ',' && position++ >= 0);
            }
            expect(')');
            skipSpaces();
            if (position != spec.length()) throw fail("unexpected '" + spec.charAt(position) + "'");
            try {
                return TensorType.of(cellType, dimensions);
            } catch (DocumentException e) {
                throw fail(e.getMessage());
            }
        }

        private Dimension dimension() {
            String name = identifier();
            skipSpaces();
            if (peek() == '{') {
                position++;
                expect('}');
                return Dimension.mapped(name);
            }
            expect('[');
            skipSpaces();
            int start = position;
            while (position < spec.length() && Character.isDigit(spec.charAt(position))) position++;
            if (start == position) throw fail("indexed dimension '" + name + "' needs a size");
            int size;
            try {
                size = Integer.parseInt(spec.substring(start, position));
            } catch (NumberFormatException e) {
                throw fail("size of dimension '" + name + "' is too large");
            }
            if (size < 1) throw fail("indexed dimension '" + name + "' must have a size of at least 1");
            expect(']');
            return Dimension.indexed(name, size);
        }

        private String identifier() {
            skipSpaces();
            int start = position;
            while (position < spec.length()) {
                char c = spec.charAt(position);
                if (!(Character.isLetterOrDigit(c) || c == '_')) break;
                position++;
            }
            if (start == position) throw fail("expected a name at position " + position);
            return spec.substring(start, position);
        }

        private void expectWord(String word) {
            skipSpaces();
            if (!spec.startsWith(word, position)) throw fail("expected '" + word + "'");
            position += word.length();
        }

        private void expect(char c) {
            skipSpaces();
            if (peek() != c) throw fail("expected '" + c + "' at position " + position);
            position++;
        }

        private char peek() {
            return position < spec.length() ? spec.charAt(position) : '\0';
        }

        private void skipSpaces() {
            while (position < spec.length() && Character.isWhitespace(spec.charAt(position))) position++;
        }

        private DocumentException fail(String why) {
            return new InvalidDocumentException("Bad tensor type '" + spec + "': " + why);
        }
    }
}
