package io.sluice.document;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;
import java.util.List;

/** Any field set text gives a field set or a {@link FieldSetException}; run with {@code JAZZER_FUZZ=1} to fuzz. */
class FieldSetFuzzTest {

    private static final DocumentType MUSIC = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .fieldSet("brief", List.of("title"))
            .build();
    private static final DocumentTypes TYPES = DocumentTypes.of(List.of(MUSIC));
    private static final Document SONG = Document.of(MUSIC, DocumentId.of("id:ns:music::1"))
            .with("title", new StringValue("t"));

    @FuzzTest(maxDuration = "30s")
    void parse_anyText_givesFieldSetOrTypedError(@NotNull String spec) {
        try {
            FieldSet.parse(spec, TYPES).filter(SONG);
        } catch (FieldSetException expected) {
            // the only acceptable failure
        }
    }
}
