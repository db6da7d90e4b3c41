package io.sluice.feed;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A document id {@code id:<namespace>:<type>:[n=<number>|g=<group>]:<user-specific>}, parsed only as far as a feed
 * client needs to build the {@code /document/v1} path. Immutable; equal when the canonical strings are equal.
 */
public final class DocumentId {

    private final String namespace;
    private final String documentType;
    private final OptionalLong number;
    private final Optional<String> group;
    private final String userSpecific;
    private final String canonical;

    private DocumentId(String namespace, String documentType, OptionalLong number, Optional<String> group,
                       String userSpecific, String canonical) {
        this.namespace = namespace;
        this.documentType = documentType;
        this.number = number;
        this.group = group;
        this.userSpecific = userSpecific;
        this.canonical = canonical;
    }

    /** An id without key/value part, e.g. {@code of("music", "music", "a")} is {@code id:music:music::a}. */
    public static DocumentId of(String namespace, String documentType, String userSpecific) {
        return of("id:" + namespace + ":" + documentType + "::" + userSpecific);
    }

    /** An id with a {@code n=} number. */
    public static DocumentId of(String namespace, String documentType, long number, String userSpecific) {
        return of("id:" + namespace + ":" + documentType + ":n=" + Long.toUnsignedString(number) + ":" + userSpecific);
    }

    /** An id with a {@code g=} group. */
    public static DocumentId of(String namespace, String documentType, String group, String userSpecific) {
        return of("id:" + namespace + ":" + documentType + ":g=" + group + ":" + userSpecific);
    }

    /**
     * Parses a document id string.
     *
     * @throws IllegalArgumentException naming the id when it is not of the form above, or a part is empty
     */
    public static DocumentId of(String id) {
        Objects.requireNonNull(id, "id");
        if ( ! id.startsWith("id:"))
            throw new IllegalArgumentException("Document id must start with 'id:', but was '" + id + "'");
        int nsEnd = id.indexOf(':', 3);
        int typeEnd = nsEnd < 0 ? -1 : id.indexOf(':', nsEnd + 1);
        int kvEnd = typeEnd < 0 ? -1 : id.indexOf(':', typeEnd + 1);
        if (kvEnd < 0)
            throw new IllegalArgumentException("Document id must have the form 'id:<namespace>:<type>:<key/value>:<user-specific>', but was '" + id + "'");
        String namespace = id.substring(3, nsEnd);
        String type = id.substring(nsEnd + 1, typeEnd);
        String kv = id.substring(typeEnd + 1, kvEnd);
        String user = id.substring(kvEnd + 1);
        if (namespace.isEmpty()) throw new IllegalArgumentException("Namespace must be non-empty in document id '" + id + "'");
        if (type.isEmpty()) throw new IllegalArgumentException("Document type must be non-empty in document id '" + id + "'");
        if (user.isEmpty()) throw new IllegalArgumentException("User-specific part must be non-empty in document id '" + id + "'");
        OptionalLong number = OptionalLong.empty();
        Optional<String> group = Optional.empty();
        if ( ! kv.isEmpty()) {
            if (kv.startsWith("n=") && kv.length() > 2) {
                try {
                    number = OptionalLong.of(Long.parseUnsignedLong(kv.substring(2)));
                }
                catch (NumberFormatException e) {
                    throw new IllegalArgumentException("Illegal number '" + kv.substring(2) + "' in document id '" + id + "'");
                }
            }
            else if (kv.startsWith("g=") && kv.length() > 2)
                group = Optional.of(kv.substring(2));
            else
                throw new IllegalArgumentException("Illegal key/value part '" + kv + "' in document id '" + id + "'; expected n=<number> or g=<group>");
        }
        return new DocumentId(namespace, type, number, group, user, id);
    }

    public String namespace() { return namespace; }
    public String documentType() { return documentType; }
    public OptionalLong number() { return number; }
    public Optional<String> group() { return group; }
    public String userSpecific() { return userSpecific; }

    @Override public boolean equals(Object o) {
        return o == this || o instanceof DocumentId && canonical.equals(((DocumentId) o).canonical);
    }

    @Override public int hashCode() { return canonical.hashCode(); }

    /** The id string, e.g. {@code id:music:music::a}. */
    @Override public String toString() { return canonical; }

}
