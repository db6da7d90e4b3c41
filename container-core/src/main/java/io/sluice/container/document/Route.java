package io.sluice.container.document;

import java.util.List;

/**
 * The seven path specifications of {@code /document/v1}, in matching order (spec §1.1). The first four address a
 * selection of documents (visit, copy, update-where, delete-where), the last three one document.
 */
public enum Route {

    ROOT("/document/v1/", List.of("GET", "POST", "DELETE")),
    DOCID_SELECTION("/document/v1/{namespace}/{documentType}/docid/", Methods.ALL),
    GROUP_SELECTION("/document/v1/{namespace}/{documentType}/group/{group}/", Methods.ALL),
    NUMBER_SELECTION("/document/v1/{namespace}/{documentType}/number/{number}/", Methods.ALL),
    DOCID_DOCUMENT("/document/v1/{namespace}/{documentType}/docid/{*}", Methods.ALL),
    GROUP_DOCUMENT("/document/v1/{namespace}/{documentType}/group/{group}/{*}", Methods.ALL),
    NUMBER_DOCUMENT("/document/v1/{namespace}/{documentType}/number/{number}/{*}", Methods.ALL);

    private static final class Methods {
        static final List<String> ALL = List.of("GET", "POST", "PUT", "DELETE");
    }

    private final String spec;
    private final List<String> methods;

    Route(String spec, List<String> methods) {
        this.spec = spec;
        this.methods = methods;
    }

    /** The path specification, as listed in 404 responses. */
    public String spec() {
        return spec;
    }

    /** The methods served here, in Vespa's order (GET, POST, PUT, DELETE). */
    public List<String> methods() {
        return methods;
    }

    /** Whether {@code method} is served here. */
    public boolean allows(String method) {
        return methods.contains(method);
    }

    /** Whether this route addresses a selection of documents rather than one document. */
    public boolean isSelection() {
        return ordinal() <= NUMBER_SELECTION.ordinal();
    }

}
