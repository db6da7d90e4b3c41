package io.sluice.document;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * A document id, {@code id:<namespace>:<document-type>:<key/value-pairs>:<user-specific>}, validated exactly as
 * Vespa's Java parser does and kept in canonical form.
 *
 * <p>The key/value section holds at most one of {@code n=<signed 64-bit number>} or {@code g=<group>}; both place the
 * document by that value instead of by its user-specific part (see {@link #location()}). The user-specific part is
 * everything after the fourth colon and may itself contain {@code :} and {@code /}; it may be empty.
 *
 * <p>Instances are immutable and thread-safe; equality is equality of the canonical string.
 */
public final class DocumentId {

    /** Longest accepted id, in UTF-16 code units. */
    public static final int MAX_LENGTH = 0x10000;
    private static final int MAX_PREFIX_LENGTH = 0xff00;

    private final String namespace;
    private final String documentType;
    private final Long number;
    private final String group;
    private final String userSpecific;
    private final String canonical;
    private volatile GlobalId globalId;
    private long location;                  // of the group or user part, once hasLocation is true
    private volatile boolean hasLocation;   // written after location

    private DocumentId(String namespace, String documentType, Long number, String group, String userSpecific) {
        this(namespace, documentType, number, group, userSpecific,
             "id:" + namespace + ':' + documentType + ':' + keyValues(number, group) + ':' + userSpecific);
    }

    /** The canonical key/value section: {@code g=<group>}, {@code n=<number>} or nothing. */
    private static String keyValues(Long number, String group) {
        return group != null ? "g=" + group : number != null ? "n=" + number : "";
    }

    private DocumentId(String namespace, String documentType, Long number, String group, String userSpecific,
                       String canonical) {
        this.namespace = namespace;
        this.documentType = documentType;
        this.number = number;
        this.group = group;
        this.userSpecific = userSpecific;
        this.canonical = canonical;
    }

    /**
     * Parses and validates a document id.
     *
     * @throws IllegalDocumentIdException with Vespa's message if {@code id} breaks any rule of the id format
     */
    public static DocumentId of(String id) {
        if (id.length() > MAX_LENGTH) {
            throw new IllegalDocumentIdException("Document id length " + id.length()
                                                 + " is longer than max length of " + MAX_LENGTH);
        }
        OptionalInt illegal = TextCharacters.firstIllegal(id);
        if (illegal.isPresent()) {
            throw unparseable(id, "Contains illegal code point 0x"
                                  + Integer.toHexString(illegal.getAsInt()).toUpperCase(Locale.ROOT));
        }
        int schemeEnd = id.indexOf(':');
        if (schemeEnd < 0) {
            throw unparseable(id, "Scheme missing");
        }
        int namespaceEnd = id.indexOf(':', schemeEnd + 1);
        if (namespaceEnd < 0) {
            throw unparseable(id, "Namespace missing");
        }
        String namespace = id.substring(schemeEnd + 1, namespaceEnd);
        if (namespace.isEmpty()) {
            throw unparseable(id, "Namespace must be non-empty");
        }
        String scheme = id.substring(0, schemeEnd);
        if (!scheme.equals("id")) {
            throw new IllegalDocumentIdException("Unknown id scheme '" + scheme + "'");
        }
        int typeEnd = id.indexOf(':', namespaceEnd + 1);
        if (typeEnd < 0) {
            throw unparseable(id, "Document type missing");
        }
        int keyValuesEnd = id.indexOf(':', typeEnd + 1);
        if (keyValuesEnd < 0) {
            throw unparseable(id, "Key/value section missing");
        }
        if (keyValuesEnd >= MAX_PREFIX_LENGTH) {
            // This also enforces Vespa's other limit, len(ns) + len(type) + len(key/values) < 0xff00 - 5: both say the
            // fourth colon sits before 0xff00.
            throw new IllegalDocumentIdException("Document id prior to the namespace specific part, " + keyValuesEnd
                                                 + ", is longer than " + MAX_PREFIX_LENGTH + " id: " + id);
        }
        String type = id.substring(namespaceEnd + 1, typeEnd);
        String keyValues = id.substring(typeEnd + 1, keyValuesEnd);
        Long number = null;
        String group = null;
        for (String pair : keyValues.split(",", -1)) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            if (equals < 0) {
                throw new IllegalDocumentIdException("Illegal key-value pair '" + pair + "'");
            }
            String key = pair.substring(0, equals);
            String value = pair.substring(equals + 1);
            if (!key.equals("n") && !key.equals("g")) {
                throw new IllegalDocumentIdException("Illegal key '" + key + "'");
            }
            if (number != null || group != null) {
                throw new IllegalDocumentIdException("Illegal key combination in " + keyValues);
            }
            if (value.isEmpty()) {
                throw new IllegalDocumentIdException("ID location value for '" + key + "=' key is empty");
            }
            if (key.equals("n")) {
                number = parseNumber(value);
            } else {
                group = value;
            }
        }
        String userSpecific = id.substring(keyValuesEnd + 1);
        // The text is canonical, and kept as it is, unless its key/value section has a number (which may be written
        // otherwise, as 007) or empty pairs (commas).
        boolean canonical = keyValues.isEmpty() || group != null && keyValues.length() == 2 + group.length();
        return canonical ? new DocumentId(namespace, type, number, group, userSpecific, id)
                         : new DocumentId(namespace, type, number, group, userSpecific);
    }

    /**
     * The id {@code id:<namespace>:<documentType>::<userSpecific>}: what {@link #of(String)} makes of that text,
     * without composing and splitting it when the parts need no parsing (no {@code :} in the namespace or type).
     *
     * @throws IllegalDocumentIdException with Vespa's message, as {@link #of(String)}
     */
    public static DocumentId of(String namespace, String documentType, String userSpecific) {
        return ofParts(namespace, documentType, null, null, userSpecific);
    }

    /** {@link #of(String, String, String)} for {@code id:<namespace>:<documentType>:n=<number>:<userSpecific>}. */
    public static DocumentId ofNumber(String namespace, String documentType, long number, String userSpecific) {
        return ofParts(namespace, documentType, number, null, userSpecific);
    }

    /** {@link #of(String, String, String)} for {@code id:<namespace>:<documentType>:g=<group>:<userSpecific>}. */
    public static DocumentId ofGroup(String namespace, String documentType, String group, String userSpecific) {
        return ofParts(namespace, documentType, null, Objects.requireNonNull(group, "group"), userSpecific);
    }

    private static DocumentId ofParts(String namespace, String type, Long number, String group, String userSpecific) {
        String keyValues = keyValues(number, group);
        int keyValuesEnd = 3 + namespace.length() + 1 + type.length() + 1 + keyValues.length();
        boolean plain = ! namespace.isEmpty() && namespace.indexOf(':') < 0 && type.indexOf(':') < 0
                        && (group == null || ! group.isEmpty() && group.indexOf(':') < 0 && group.indexOf(',') < 0)
                        && keyValuesEnd < MAX_PREFIX_LENGTH && keyValuesEnd + 1 + userSpecific.length() <= MAX_LENGTH
                        && TextCharacters.firstIllegal(namespace).isEmpty()
                        && TextCharacters.firstIllegal(type).isEmpty()
                        && (group == null || TextCharacters.firstIllegal(group).isEmpty())
                        && TextCharacters.firstIllegal(userSpecific).isEmpty();
        String text = "id:" + namespace + ':' + type + ':' + keyValues + ':' + userSpecific;
        // The composed text is the canonical one when plain; else it is parsed, for the same id or the same message.
        return plain ? new DocumentId(namespace, type, number, group, userSpecific, text) : of(text);
    }

    private static long parseNumber(String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new IllegalDocumentIdException("Illegal value '" + value
                                                 + "' for 'n=' key: expected a signed 64-bit decimal number");
        }
    }

    private static IllegalDocumentIdException unparseable(String id, String reason) {
        return new IllegalDocumentIdException("Unparseable id '" + id + "': " + reason);
    }

    /** The namespace, never empty. */
    public String namespace() {
        return namespace;
    }

    /** The document type name; may be empty, in which case no document type will match it. */
    public String documentType() {
        return documentType;
    }

    /** The {@code n=} value, if the id has one. */
    public OptionalLong number() {
        return number == null ? OptionalLong.empty() : OptionalLong.of(number);
    }

    /** The {@code g=} value, if the id has one. */
    public Optional<String> group() {
        return Optional.ofNullable(group);
    }

    /** The user-specific part: everything after the fourth colon; may be empty. */
    public String userSpecific() {
        return userSpecific;
    }

    /**
     * The 64-bit location that decides where the document is stored: the {@code n=} value, else the first eight bytes
     * (little-endian) of the MD5 of the group, else of the user-specific part. Ids sharing a number or group share a
     * location, and so their low 32 bucket bits. Computed once: a document's bucket and its global id both need it.
     */
    public long location() {
        if (number != null) {
            return number;
        }
        if ( ! hasLocation) {
            location = Md5.littleEndianLong(Md5.of(group != null ? group : userSpecific), 0);
            hasLocation = true;
        }
        return location;
    }

    /** The global id Vespa derives from this id, computed once. */
    public GlobalId globalId() {
        GlobalId gid = globalId;
        if (gid == null) {
            gid = GlobalId.of(this);
            globalId = gid;
        }
        return gid;
    }

    /** The canonical form: {@code id:ns:type:} then {@code g=<g>}, {@code n=<n>} or nothing, then {@code :user}. */
    @Override
    public String toString() {
        return canonical;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof DocumentId && ((DocumentId) other).canonical.equals(canonical);
    }

    @Override
    public int hashCode() {
        return canonical.hashCode();
    }

}
