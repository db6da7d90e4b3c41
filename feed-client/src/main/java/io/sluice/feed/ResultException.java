package io.sluice.feed;

import java.util.Optional;

/** The server answered 502, 504 or 507: the operation reached the cluster, which failed it. */
public class ResultException extends FeedException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String trace;

    public ResultException(DocumentId documentId, int status, String message, String trace) {
        super(documentId, status, message);
        this.status = status;
        this.trace = trace;
    }

    public int status() { return status; }

    /** The response's {@code trace} array as JSON text, if any. */
    public Optional<String> trace() { return Optional.ofNullable(trace); }

}
