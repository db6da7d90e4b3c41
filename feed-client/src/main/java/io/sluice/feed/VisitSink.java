package io.sluice.feed;

import java.io.IOException;
import java.util.Optional;

/** Receives what one slice of a visit produces, in order, on the visiting thread. */
public interface VisitSink {

    /** A visited document as one JSON object {@code {"id":…,"fields":…}}, without a line break. */
    void document(byte[] json, int offset, int length) throws IOException;

    /**
     * Everything before this point was delivered. {@code token} is where to resume, or empty when the slice is done;
     * {@code percentFinished} is the slice's progress, or NaN when the server did not say.
     */
    void continuation(Optional<String> token, double percentFinished) throws IOException;

    /** For update-where and delete-where: the server processed this many more documents. */
    default void processed(long documents) { }

}
