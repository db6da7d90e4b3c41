package io.sluice.container.document;

import io.sluice.container.FatalErrors;
import io.sluice.container.HttpStatusException;
import io.sluice.document.DocumentException;
import org.eclipse.jetty.http.HttpStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The one mapping from an exception to a {@code /document/v1} answer, wherever it is caught (the handler's dispatch,
 * a body that finished arriving, a visit that started later): an {@link HttpStatusException} is its own status and
 * message; a {@link DocumentException} is the client's bad input, a 400 with its message; anything else is a bug,
 * a 500 with a fixed message, logged once with its stack trace. Never a 400 for the unexpected.
 */
final class Failures {

    private static final Logger log = LoggerFactory.getLogger(Failures.class);

    private Failures() { }

    /** The exception behind wrappers of asynchronous completion. */
    static Throwable unwrap(Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null)
            cause = cause.getCause();
        return cause;
    }

    /** The status {@code failure} maps to if it is the client's (4xx) or a deliberate one; null if it is unexpected. */
    static HttpStatusException expected(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof HttpStatusException)
            return (HttpStatusException) cause;
        if (cause instanceof DocumentException)
            return new HttpStatusException(HttpStatus.BAD_REQUEST_400, cause.getMessage());
        return null;
    }

    /**
     * The reply for {@code failure} while {@code doing} (e.g. "handling POST") for {@code pathId}; logs an unexpected
     * failure, and reports a fatal one.
     */
    static DocumentResponses.Reply reply(String pathId, Throwable failure, String doing) {
        HttpStatusException expected = expected(failure);
        if (expected != null)
            return DocumentResponses.error(pathId, expected);
        Throwable cause = unwrap(failure);
        if ( ! FatalErrors.report(cause))
            log.error("Unexpected failure {} {}", doing, pathId, cause);
        return DocumentResponses.internalError(pathId);
    }

    /** Answers {@code request} with {@link #reply}, unless it was answered already. */
    static void respond(DocumentRequest request, Throwable failure, String doing) {
        request.respond(reply(request.pathId(), failure, doing));
    }

}
