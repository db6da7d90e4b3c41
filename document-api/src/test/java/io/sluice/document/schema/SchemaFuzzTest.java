package io.sluice.document.schema;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.code_intelligence.jazzer.mutation.annotation.NotNull;

/**
 * Malformed schema files must give a {@link SchemaParseException} (or document types), never another exception or
 * a hang. Seeds live in {@code SchemaFuzzTestInputs}; run with {@code JAZZER_FUZZ=1} to fuzz for real.
 */
class SchemaFuzzTest {

    @FuzzTest(maxDuration = "60s")
    void parse_anyText_givesTypesOrTypedError(@NotNull String text) {
        try {
            SchemaParser.parse("fuzz.sd", text);
        } catch (SchemaParseException expected) {
            // the only acceptable failure
        }
    }
}
