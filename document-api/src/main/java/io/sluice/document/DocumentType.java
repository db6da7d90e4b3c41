package io.sluice.document;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * A document type: its name, the types it inherits, its fields (inherited ones first), the structs it declares or
 * inherits, and the named field sets of its schema. Immutable; built with {@link #builder(String)}.
 */
public final class DocumentType {

    private final String name;
    private final List<DocumentType> inherited;
    private final Map<String, Field> fields;
    private final Field[] byIndex; // the fields in fields()' order: a document keeps its values at these positions
    private final Map<String, Integer> indexes;
    private final Map<String, StructType> structs;
    private final Map<String, List<String>> fieldSets;
    private final Map<String, ImportedField> importedFields;
    private final int fingerprint;

    private DocumentType(Builder builder, Map<String, Field> fields, Map<String, StructType> structs) {
        this.name = builder.name;
        this.inherited = List.copyOf(builder.inherited);
        this.fields = Collections.unmodifiableMap(fields);
        this.byIndex = fields.values().toArray(new Field[0]);
        Map<String, Integer> indexes = new HashMap<>();
        for (int i = 0; i < byIndex.length; i++) indexes.put(byIndex[i].name(), i);
        this.indexes = indexes;
        this.structs = Collections.unmodifiableMap(structs);
        this.fieldSets = Collections.unmodifiableMap(new LinkedHashMap<>(builder.fieldSets));
        Map<String, ImportedField> imported = new TreeMap<>();
        for (DocumentType parent : inherited) imported.putAll(parent.importedFields);
        imported.putAll(builder.importedFields);
        this.importedFields = Collections.unmodifiableMap(imported);
        this.fingerprint = describe().hashCode();
    }

    /**
     * Everything that decides how a document's JSON reads into this type: the name, each field with its type, each
     * struct with its fields. Two types with equal descriptions read the same JSON into the same document.
     */
    private String describe() {
        StringBuilder description = new StringBuilder(name);
        for (Field field : fields.values())
            description.append('\n').append(field.name()).append(' ').append(field.type().typeName());
        for (StructType struct : structs.values())
            description.append('\n').append(struct);
        // Predicates have been read into canonical form since this line was added: JSON stored before then may not
        // read back unchanged, so it must not be sent as it is.
        if (fields.values().stream().anyMatch(field -> hasPredicates(field.type())))
            description.append("\npredicates in canonical form");
        return description.toString();
    }

    private static boolean hasPredicates(DataType type) {
        if (type == PrimitiveType.PREDICATE) return true;
        if (type instanceof ArrayType) return hasPredicates(((ArrayType) type).elementType());
        if (type instanceof WeightedSetType) return hasPredicates(((WeightedSetType) type).keyType());
        if (type instanceof MapType)
            return hasPredicates(((MapType) type).keyType()) || hasPredicates(((MapType) type).valueType());
        if (type instanceof StructType)
            return ((StructType) type).fields().stream().anyMatch(field -> hasPredicates(field.type()));
        return false;
    }

    /**
     * A hash of this type's fields and structs (with their types), the same in every process for the same schema: an
     * engine that stores it with a document's JSON can tell whether that JSON still reads back unchanged, i.e. whether
     * the schema changed (a field removed, or its type changed) since the document was written.
     */
    public int fingerprint() {
        return fingerprint;
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    /** The directly inherited types. */
    public List<DocumentType> inherited() {
        return inherited;
    }

    /** All fields, inherited ones first, each in declaration order. */
    public Collection<Field> fields() {
        return fields.values();
    }

    /** The field with this name, declared here or inherited. */
    public Optional<Field> field(String fieldName) {
        return Optional.ofNullable(fields.get(fieldName));
    }

    /** The position of the named field in {@link #fields()}, or -1 if this type has no such field. */
    public int fieldIndex(Object fieldName) {
        Integer index = indexes.get(fieldName);
        return index == null ? -1 : index;
    }

    /** The field at {@code index} in {@link #fields()}. */
    public Field fieldAt(int index) {
        return byIndex[index];
    }

    /** The number of fields, declared here or inherited. */
    int fieldCount() {
        return byIndex.length;
    }

    /** The struct with this name, declared here or inherited. */
    public Optional<StructType> struct(String structName) {
        return Optional.ofNullable(structs.get(structName));
    }

    public Collection<StructType> structs() {
        return structs.values();
    }

    /** Named field sets (from the schema's {@code fieldset} blocks): name to field names. */
    public Map<String, List<String>> fieldSets() {
        return fieldSets;
    }

    /**
     * The names its schema gives fields imported from a parent document through a reference
     * ({@code import field ref.field as name}), its parents' included. They are not fields of its documents.
     */
    public Set<String> importedFields() {
        return importedFields.keySet();
    }

    /** The field its schema imports as {@code name} ({@link #importedFields()}), if any. */
    public Optional<ImportedField> importedField(String name) {
        return Optional.ofNullable(importedFields.get(name));
    }

    /** Whether this type is {@code typeName} or inherits it, directly or not. */
    public boolean isA(String typeName) {
        if (name.equals(typeName)) return true;
        for (DocumentType parent : inherited)
            if (parent.isA(typeName)) return true;
        return false;
    }

    @Override
    public boolean equals(Object o) {
        if (o == this) return true;
        if (!(o instanceof DocumentType)) return false;
        DocumentType other = (DocumentType) o;
        return name.equals(other.name) && inherited.equals(other.inherited) && fields.equals(other.fields)
               && structs.equals(other.structs) && fieldSets.equals(other.fieldSets)
               && importedFields.equals(other.importedFields);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return "document type '" + name + "'";
    }

    /** Collects the parts of a document type; {@link #build()} throws {@link DocumentException} on conflicts. */
    public static final class Builder {

        private final String name;
        private final List<DocumentType> inherited = new ArrayList<>();
        private final List<Field> fields = new ArrayList<>();
        private final List<StructType> structs = new ArrayList<>();
        private final Map<String, List<String>> fieldSets = new LinkedHashMap<>();
        private final Map<String, ImportedField> importedFields = new TreeMap<>();

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        public Builder inherit(DocumentType parent) {
            inherited.add(Objects.requireNonNull(parent, "parent"));
            return this;
        }

        public Builder field(String fieldName, DataType type) {
            fields.add(new Field(fieldName, type));
            return this;
        }

        public Builder struct(StructType struct) {
            structs.add(Objects.requireNonNull(struct, "struct"));
            return this;
        }

        public Builder fieldSet(String fieldSetName, List<String> fieldNames) {
            fieldSets.put(Objects.requireNonNull(fieldSetName, "fieldSetName"), List.copyOf(fieldNames));
            return this;
        }

        /** Notes a field its schema imports from a parent document. */
        public Builder importedField(ImportedField field) {
            importedFields.put(field.name(), field);
            return this;
        }

        public DocumentType build() {
            Map<String, Field> allFields = new LinkedHashMap<>();
            Map<String, StructType> allStructs = new LinkedHashMap<>();
            for (DocumentType parent : inherited) {
                for (Field field : parent.fields()) addField(allFields, field, true);
                for (StructType struct : parent.structs()) allStructs.putIfAbsent(struct.name(), struct);
            }
            for (Field field : fields) addField(allFields, field, false);
            for (StructType struct : structs)
                if (allStructs.put(struct.name(), struct) != null && !inheritsStruct(struct))
                    throw new InvalidDocumentException("Struct '" + struct.name() + "' is declared twice in document type '"
                                                + name + "'");
            for (Map.Entry<String, List<String>> fieldSet : fieldSets.entrySet())
                for (String fieldName : fieldSet.getValue())
                    if (!allFields.containsKey(fieldName))
                        throw new InvalidDocumentException("Field set '" + fieldSet.getKey() + "' of document type '" + name
                                                    + "' names field '" + fieldName + "', which is not defined");
            return new DocumentType(this, allFields, allStructs);
        }

        private boolean inheritsStruct(StructType struct) {
            for (DocumentType parent : inherited)
                if (parent.struct(struct.name()).isPresent()) return true;
            return false;
        }

        private void addField(Map<String, Field> allFields, Field field, boolean fromParent) {
            Field existing = allFields.putIfAbsent(field.name(), field);
            if (existing == null || (fromParent && existing.equals(field))) return;
            throw new InvalidDocumentException("Field '" + field.name() + "' is declared twice in document type '" + name
                                        + "' (" + existing.type().typeName() + " and " + field.type().typeName() + ")");
        }
    }
}
