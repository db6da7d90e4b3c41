package io.sluice.content;

import java.util.Locale;

/**
 * The two independent document spaces of a content cluster. Documents of global types (replicated to every node in
 * Vespa) live in {@link #GLOBAL}, all others in {@link #DEFAULT}; the caller knows which from the schema and says so
 * in every operation. A document stored in one space is invisible in the other.
 */
public enum BucketSpace {

    DEFAULT, GLOBAL;

    /** The name used on the wire: {@code default} or {@code global}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The space with this wire name.
     *
     * @throws IllegalArgumentException naming the value if it is neither {@code default} nor {@code global}
     */
    public static BucketSpace fromWireName(String name) {
        for (BucketSpace space : values()) {
            if (space.wireName().equals(name)) {
                return space;
            }
        }
        throw new IllegalArgumentException("Bucket space '" + name + "' is not a known bucket space; expected one of "
                                           + "default, global");
    }

}
