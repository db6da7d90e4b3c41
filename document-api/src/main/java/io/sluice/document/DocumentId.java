package io.sluice.document;

/**
 * A document id {@code id:<namespace>:<type>:<key/values>:<user-specific>}.
 * Placeholder with just the members the model needs; the real class comes from the ids work.
 */
public final class DocumentId {

    private final String id;
    private final String documentType;

    private DocumentId(String id, String documentType) {
        this.id = id;
        this.documentType = documentType;
    }

    /** Parses an id; throws {@link DocumentException} naming the id if it is malformed. */
    public static DocumentId of(String id) {
        if (id == null || !id.startsWith("id:"))
            throw new DocumentException("Unknown id scheme in '" + id + "'");
        int namespaceEnd = id.indexOf(':', 3);
        int typeEnd = namespaceEnd < 0 ? -1 : id.indexOf(':', namespaceEnd + 1);
        int keyValuesEnd = typeEnd < 0 ? -1 : id.indexOf(':', typeEnd + 1);
        if (keyValuesEnd < 0)
            throw new DocumentException("Unparseable id '" + id + "'");
        return new DocumentId(id, id.substring(namespaceEnd + 1, typeEnd));
    }

    /** The document type part of the id. */
    public String documentType() {
        return documentType;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DocumentId && ((DocumentId) o).id.equals(id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return id;
    }
}
