package io.sluice.feed;

/** A response body was not the JSON object every /document/v1 response must be. */
public class ResultParseException extends FeedException {

    private static final long serialVersionUID = 1L;

    public ResultParseException(DocumentId documentId, String message) { super(documentId, message); }

}
