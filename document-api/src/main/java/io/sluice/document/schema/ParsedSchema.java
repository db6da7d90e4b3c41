package io.sluice.document.schema;

import io.sluice.document.ImportedField;

import io.sluice.document.TensorType;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The document parts of one schema file, before type names are resolved, and how many statements of each kind it has
 * that Sluice does not model (by their first word: indexing, rank-profile, ...).
 */
record ParsedSchema(String file, String name, Located document, List<Located> inherits, List<ParsedField> fields,
                    List<ParsedStruct> structs, List<ParsedFieldSet> fieldSets, Set<String> otherFieldNames, List<ImportedField> importedFields,
                    List<Located> schemaInherits, Map<String, Integer> notModelled) {

    /** A name and where it was written. */
    record Located(String name, int line, int column) { }

    record ParsedField(Located name, TypeRef type, boolean createIfNonExistent, boolean removeIfZero) { }

    record ParsedStruct(Located name, List<Located> inherits, List<ParsedField> fields) { }

    record ParsedFieldSet(Located name, List<Located> fields) { }

    /** A type as written: a name (primitive or struct), a collection, a reference or a tensor. */
    interface TypeRef {
        Located where();
    }

    record NamedRef(Located where) implements TypeRef { }

    record ArrayRef(Located where, TypeRef element) implements TypeRef { }

    record WeightedSetRef(Located where, TypeRef key) implements TypeRef { }

    record MapRef(Located where, TypeRef key, TypeRef value) implements TypeRef { }

    record ReferenceRef(Located where, Located target) implements TypeRef { }

    record TensorRef(Located where, TensorType type) implements TypeRef { }
}
