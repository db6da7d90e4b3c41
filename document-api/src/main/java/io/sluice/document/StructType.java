package io.sluice.document;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** A named struct: an ordered set of fields. Inherited struct fields are already included. */
public final class StructType implements DataType {

    private final String name;
    private final Map<String, Field> fields;

    private StructType(String name, Map<String, Field> fields) {
        this.name = name;
        this.fields = fields;
    }

    /** A struct with these fields, in this order; throws {@link DocumentException} on a repeated field name. */
    public static StructType of(String name, List<Field> fields) {
        Objects.requireNonNull(name, "name");
        Map<String, Field> byName = new LinkedHashMap<>();
        for (Field field : fields)
            if (byName.put(field.name(), field) != null)
                throw new InvalidDocumentException("Field '" + field.name() + "' is declared twice in struct '" + name + "'");
        return new StructType(name, Collections.unmodifiableMap(byName));
    }

    public String name() {
        return name;
    }

    /** The fields, in declaration order. */
    public Collection<Field> fields() {
        return fields.values();
    }

    public Optional<Field> field(String fieldName) {
        return Optional.ofNullable(fields.get(fieldName));
    }

    @Override
    public String typeName() {
        return name;
    }

    @Override
    public boolean accepts(FieldValue value) {
        if (!(value instanceof StructValue)) return false;
        for (Map.Entry<String, FieldValue> entry : ((StructValue) value).fields().entrySet()) {
            Field field = fields.get(entry.getKey());
            if (field == null || !field.type().accepts(entry.getValue())) return false;
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StructType && ((StructType) o).name.equals(name) && ((StructType) o).fields.equals(fields);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return "struct " + name + fields.values();
    }
}
