package io.sluice.document.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.StreamReadConstraints;

/** The shared, thread-safe Jackson factory for document JSON. */
public final class DocumentJson {

    // Like Vespa, no limit on string length: bodies are bounded by the request size limit instead.
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    private DocumentJson() {
    }

    /** The factory to create parsers and generators for document JSON with; never closes caller streams. */
    public static JsonFactory factory() {
        return FACTORY;
    }
}
