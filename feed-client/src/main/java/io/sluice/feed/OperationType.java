package io.sluice.feed;

/** The three document operations, and the HTTP methods that carry them. */
public enum OperationType {
    PUT("POST"), UPDATE("PUT"), REMOVE("DELETE");

    private final String method;

    OperationType(String method) { this.method = method; }

    /** The HTTP method: POST, PUT or DELETE. */
    public String method() { return method; }
}
