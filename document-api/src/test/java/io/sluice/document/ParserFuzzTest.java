package io.sluice.document;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.document.select.DocumentSelection;
import io.sluice.document.select.Result;
import io.sluice.document.select.SelectionContext;
import io.sluice.document.select.SelectionParseException;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Coverage-guided fuzzing of the id and selection parsers. Without {@code JAZZER_FUZZ=1} (every normal build) each
 * target replays its seed corpus under {@code src/test/resources/io/sluice/document/ParserFuzzTestInputs/<target>/}; with
 * it, Jazzer mutates inputs (see {@code fuzz.sh}). Any exception other than the module's typed parse errors fails.
 */
class ParserFuzzTest {

    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(1_700_000_000L), ZoneOffset.UTC);
    private static final SelectionContext DOCUMENT = SelectionContext.of(
            DocumentId.of("id:ns:music:n=5:a"),
            Map.of("title", "Cold Play", "year", 2005L, "tags", List.of("a", "b"),
                   "m", Map.of("k", 1L), "s", new SelectionContext.Struct(Map.of("f", 2.5))));
    private static final SelectionContext REMOVED = SelectionContext.removed(DocumentId.of("id:ns:music::gone"));

    @FuzzTest(maxDuration = "30s")
    void documentId(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        DocumentId id;
        try {
            id = DocumentId.of(text);
        } catch (IllegalDocumentIdException expected) {
            return;
        }
        assertEquals(id, DocumentId.of(id.toString()));
        assertNotNull(BucketId.of(id));
    }

    @FuzzTest(maxDuration = "30s")
    void selection(byte[] input) {
        String text = new String(input, StandardCharsets.UTF_8);
        DocumentSelection selection;
        try {
            selection = DocumentSelection.parse(text);
        } catch (SelectionParseException expected) {
            return;
        }
        assertEquals(selection.expression(), DocumentSelection.parse(selection.expression().toString()).expression(),
                     () -> "printed form did not parse back: " + selection.expression());
        Result result = selection.evaluate(DOCUMENT, CLOCK);
        assertNotNull(result);
        assertNotNull(selection.evaluate(REMOVED, CLOCK));
        assertNotNull(selection.bucketConstraint());
    }

}
