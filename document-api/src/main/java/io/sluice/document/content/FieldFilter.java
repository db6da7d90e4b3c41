package io.sluice.document.content;

import io.sluice.document.Document;

import java.util.Set;

/**
 * Which fields of a document a get or visit returns. A stand-in for the field-set model ({@code [all]},
 * {@code [document]}, {@code [id]}, {@code type:f1,f2}): the caller resolves the requested field set into a filter;
 * the backend only applies it. Implementations must be stateless and thread-safe.
 */
@FunctionalInterface
public interface FieldFilter {

    /** Every field. */
    FieldFilter ALL = document -> document;

    /** No fields: the id and type only. */
    FieldFilter NONE = document -> Document.of(document.type(), document.id());

    /** {@code document} with only the fields this filter keeps; the id and type are always kept. */
    Document filter(Document document);

    /** Keeps exactly the named fields (those a document has). */
    static FieldFilter only(Set<String> fieldNames) {
        Set<String> names = Set.copyOf(fieldNames);
        return document -> document.withOnly(names::contains);
    }

}
