package io.sluice.document.schema;

import io.sluice.document.ArrayType;
import io.sluice.document.DataType;
import io.sluice.document.DocumentException;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.Field;
import io.sluice.document.MapType;
import io.sluice.document.PrimitiveType;
import io.sluice.document.ReferenceType;
import io.sluice.document.StructType;
import io.sluice.document.WeightedSetType;
import io.sluice.document.schema.ParsedSchema.ArrayRef;
import io.sluice.document.schema.ParsedSchema.Located;
import io.sluice.document.schema.ParsedSchema.MapRef;
import io.sluice.document.schema.ParsedSchema.ParsedField;
import io.sluice.document.schema.ParsedSchema.ParsedFieldSet;
import io.sluice.document.schema.ParsedSchema.ParsedStruct;
import io.sluice.document.schema.ParsedSchema.ReferenceRef;
import io.sluice.document.schema.ParsedSchema.TensorRef;
import io.sluice.document.schema.ParsedSchema.TypeRef;
import io.sluice.document.schema.ParsedSchema.WeightedSetRef;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Turns parsed schemas into document types: resolves inheritance, struct and reference names, field sets. */
final class SchemaResolver {

    private final Map<String, ParsedSchema> schemasByDocument = new LinkedHashMap<>();
    private final Map<String, DocumentType> built = new LinkedHashMap<>();
    private final Set<String> building = new HashSet<>();

    private SchemaResolver(List<ParsedSchema> schemas) {
        for (ParsedSchema schema : schemas) {
            ParsedSchema previous = schemasByDocument.putIfAbsent(schema.document().name(), schema);
            if (previous != null)
                throw error(schema, schema.document(), "Document type '" + schema.document().name()
                                                       + "' is also defined in " + previous.file());
        }
    }

    static DocumentTypes resolve(List<ParsedSchema> schemas) {
        SchemaResolver resolver = new SchemaResolver(schemas);
        for (ParsedSchema schema : schemas) resolver.documentType(schema, schema.document());
        return DocumentTypes.of(resolver.built.values());
    }

    private DocumentType documentType(ParsedSchema referrer, Located name) {
        DocumentType existing = built.get(name.name());
        if (existing != null) return existing;
        ParsedSchema schema = schemasByDocument.get(name.name());
        if (schema == null) throw error(referrer, name, "Document type '" + name.name() + "' is not defined");
        if (!building.add(name.name()))
            throw error(referrer, name, "Document type '" + name.name() + "' inherits itself");
        DocumentType.Builder builder = DocumentType.builder(name.name());
        List<DocumentType> parents = new ArrayList<>();
        for (Located parent : schema.inherits()) {
            DocumentType parentType = documentType(schema, parent);
            parents.add(parentType);
            builder.inherit(parentType);
        }
        StructScope scope = new StructScope(schema, parents);
        for (ParsedStruct struct : schema.structs()) builder.struct(scope.struct(struct));
        Set<String> declared = new HashSet<>();
        for (ParsedField field : schema.fields()) {
            if (!declared.add(field.name().name()))
                throw error(schema, field.name(), "Field '" + field.name().name() + "' is declared twice");
            builder.field(field.name().name(), scope.fieldType(field));
        }
        schema.importedFields().forEach(builder::importedField);
        Set<String> fieldSetNames = new HashSet<>();
        for (ParsedFieldSet fieldSet : schema.fieldSets()) {
            builder.fieldSet(fieldSet.name().name(), fieldSetFields(schema, fieldSet, declared, parents));
            fieldSetNames.add(fieldSet.name().name());
        }
        // "schema X inherits Y" also inherits Y's field sets, unless X defines one of the same name.
        for (Located parent : schema.schemaInherits()) {
            DocumentType parentType = documentType(schema, parent);
            if (!parents.contains(parentType))
                throw error(schema, parent, "Schema '" + schema.name() + "' inherits schema '" + parent.name()
                                            + "', so its document must inherit document '" + parent.name() + "'");
            parentType.fieldSets().forEach((fieldSetName, fieldNames) -> {
                if (fieldSetNames.add(fieldSetName)) builder.fieldSet(fieldSetName, fieldNames);
            });
        }
        DocumentType type;
        try {
            type = builder.build();
        } catch (DocumentException e) {
            throw error(schema, schema.document(), e.getMessage());
        }
        building.remove(name.name());
        built.put(name.name(), type);
        return type;
    }

    /** The document fields of a field set; fields declared outside the document are left out. */
    private static List<String> fieldSetFields(ParsedSchema schema, ParsedFieldSet fieldSet, Set<String> declared,
                                               List<DocumentType> parents) {
        List<String> names = new ArrayList<>();
        for (Located field : fieldSet.fields()) {
            boolean inherited = parents.stream().anyMatch(parent -> parent.field(field.name()).isPresent());
            if (declared.contains(field.name()) || inherited) names.add(field.name());
            else if (!schema.otherFieldNames().contains(field.name()))
                throw error(schema, field, "Field set '" + fieldSet.name().name() + "' names field '" + field.name()
                                           + "', which is not defined");
        }
        return names;
    }

    private static SchemaParseException error(ParsedSchema schema, Located where, String message) {
        return new SchemaParseException(schema.file(), where.line(), where.column(), message);
    }

    /** Resolves type names within one document: its own structs, then inherited ones. */
    private final class StructScope {

        private final ParsedSchema schema;
        private final List<DocumentType> parents;
        private final Map<String, ParsedStruct> declared = new HashMap<>();
        private final Map<String, StructType> resolved = new HashMap<>();
        private final Set<String> resolving = new HashSet<>();

        StructScope(ParsedSchema schema, List<DocumentType> parents) {
            this.schema = schema;
            this.parents = parents;
            for (ParsedStruct struct : schema.structs())
                if (declared.putIfAbsent(struct.name().name(), struct) != null)
                    throw error(schema, struct.name(), "Struct '" + struct.name().name() + "' is declared twice");
        }

        StructType struct(ParsedStruct struct) {
            String name = struct.name().name();
            StructType existing = resolved.get(name);
            if (existing != null) return existing;
            if (!resolving.add(name)) throw error(schema, struct.name(), "Struct '" + name + "' contains itself");
            List<Field> fields = new ArrayList<>();
            for (Located parent : struct.inherits()) {
                StructType parentType = structNamed(parent)
                        .orElseThrow(() -> error(schema, parent, "Struct '" + parent.name() + "' is not defined"));
                fields.addAll(parentType.fields());
            }
            for (ParsedField field : struct.fields()) fields.add(new Field(field.name().name(), fieldType(field)));
            StructType type;
            try {
                type = StructType.of(name, fields);
            } catch (DocumentException e) {
                throw error(schema, struct.name(), e.getMessage());
            }
            resolving.remove(name);
            resolved.put(name, type);
            return type;
        }

        DataType fieldType(ParsedField field) {
            TypeRef ref = field.type();
            if (ref instanceof WeightedSetRef)
                return weightedSet((WeightedSetRef) ref, field.createIfNonExistent(), field.removeIfZero());
            return type(ref);
        }

        private DataType type(TypeRef ref) {
            try {
                if (ref instanceof ArrayRef) return new ArrayType(type(((ArrayRef) ref).element()));
                if (ref instanceof WeightedSetRef) return weightedSet((WeightedSetRef) ref, false, false);
                if (ref instanceof MapRef) return new MapType(type(((MapRef) ref).key()), type(((MapRef) ref).value()));
                if (ref instanceof TensorRef) return ((TensorRef) ref).type();
                if (ref instanceof ReferenceRef) return reference((ReferenceRef) ref);
            } catch (SchemaParseException e) {
                throw e;
            } catch (DocumentException e) {
                throw error(schema, ref.where(), e.getMessage());
            }
            Located name = ref.where();
            Optional<PrimitiveType> primitive = PrimitiveType.fromSchemaName(name.name());
            if (primitive.isPresent()) return primitive.get();
            return structNamed(name).orElseThrow(() -> error(schema, name, "Unknown type '" + name.name() + "'"));
        }

        private DataType weightedSet(WeightedSetRef ref, boolean createIfNonExistent, boolean removeIfZero) {
            DataType key = type(ref.key());
            try {
                return new WeightedSetType(key, createIfNonExistent, removeIfZero);
            } catch (DocumentException e) {
                throw error(schema, ref.where(), e.getMessage());
            }
        }

        private DataType reference(ReferenceRef ref) {
            if (!schemasByDocument.containsKey(ref.target().name()))
                throw error(schema, ref.target(), "Referenced document type '" + ref.target().name() + "' is not defined");
            return new ReferenceType(ref.target().name());
        }

        private Optional<StructType> structNamed(Located name) {
            ParsedStruct own = declared.get(name.name());
            if (own != null) return Optional.of(struct(own));
            for (DocumentType parent : parents) {
                Optional<StructType> inherited = parent.struct(name.name());
                if (inherited.isPresent()) return inherited;
            }
            return Optional.empty();
        }
    }
}
