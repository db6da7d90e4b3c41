package io.sluice.document;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The document types of an application, by name. Immutable. */
public final class DocumentTypes {

    private final Map<String, DocumentType> byName;

    private DocumentTypes(Map<String, DocumentType> byName) {
        this.byName = Collections.unmodifiableMap(byName);
    }

    /**
     * A registry of these types and every type they inherit. Throws {@link DocumentException} if two different
     * types share a name.
     */
    public static DocumentTypes of(Collection<DocumentType> types) {
        Map<String, DocumentType> byName = new LinkedHashMap<>();
        for (DocumentType type : types) add(byName, type);
        return new DocumentTypes(byName);
    }

    private static void add(Map<String, DocumentType> byName, DocumentType type) {
        for (DocumentType parent : type.inherited()) add(byName, parent);
        DocumentType existing = byName.putIfAbsent(type.name(), type);
        if (existing != null && !existing.equals(type))
            throw new InvalidDocumentException("Two different document types are named '" + type.name() + "'");
    }

    /** The type with this name, if any. */
    public Optional<DocumentType> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The type with this name; throws {@link DocumentException} "Document type x does not exist" if none. */
    public DocumentType get(String name) {
        DocumentType type = byName.get(name);
        if (type == null) throw new InvalidDocumentException("Document type " + name + " does not exist");
        return type;
    }

    /** All types, parents before the types that inherit them. */
    public Collection<DocumentType> all() {
        return byName.values();
    }

    public boolean contains(String name) {
        return byName.containsKey(name);
    }

    @Override
    public String toString() {
        return "document types " + byName.keySet();
    }
}
