package io.sluice.content;

import io.sluice.document.Document;
import io.sluice.document.json.FieldsJson;

import java.util.Optional;

/**
 * The newest stored version of one document as an engine read it: a live document or a tombstone, with its
 * timestamp. The {@link WriteRules} decide on it; "no version at all" is {@code null} there.
 *
 * <p>An engine may read only a version's header (liveness and timestamp) when the rules do not need the document
 * ({@link WriteRules#needsDocument}); {@link #document()} is then never called.
 */
public interface Version {

    /** Whether this is a live document rather than a tombstone. */
    boolean isLive();

    /** When this version was written, in microseconds. */
    long timestamp();

    /**
     * The live document. Called at most once per decision, and only on live versions.
     *
     * @throws io.sluice.document.DocumentException if the stored form cannot be read into the application's types
     */
    Document document();

    /**
     * The live document's fields as {@link FieldsJson}, if the engine holds them in exactly that form for the
     * application's current types (it must know the schema did not change since they were written); a get of the
     * whole document then answers with these bytes and decodes nothing. Empty by default.
     */
    default Optional<FieldsJson> fieldsJson() {
        return Optional.empty();
    }

    /** Whether {@code version} (possibly null, for none) is a live document. */
    static boolean isLive(Version version) {
        return version != null && version.isLive();
    }

}
