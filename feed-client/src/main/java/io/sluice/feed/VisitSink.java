package io.sluice.feed;

import java.io.IOException;
import java.util.Optional;

/**
 * Receives what one slice of a visit produces, in order, from one thread at a time: the visiting thread, or the one
 * delivering a response's content (never two at once; each call happens after the one before it).
 */
public interface VisitSink {

    /** A visited document as one JSON object {@code {"id":…,"fields":…}}, without a line break. */
    void document(byte[] json, int offset, int length) throws IOException;

    /**
     * Everything before this point was delivered. {@code token} is where to resume, or empty when the slice is done;
     * {@code percentFinished} is the slice's progress, or NaN when the server did not say.
     */
    void continuation(Optional<String> token, double percentFinished) throws IOException;

    /**
     * The slice goes on from the last token delivered (or the start), after a response that broke off or failed:
     * documents delivered since that token will come again; a sink that can, drops them now.
     */
    default void rewind() throws IOException { }

    /** For update-where and delete-where: the server processed this many more documents. */
    default void processed(long documents) { }

}
