package io.sluice.document.json;

import static io.sluice.document.json.TestTypes.ID;
import static io.sluice.document.json.TestTypes.TYPES;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Malformed put bodies must give a {@link DocumentJsonException} (or a valid document), never another exception or
 * a hang. Seeds live in {@code DocumentJsonFuzzTestInputs}; run with {@code JAZZER_FUZZ=1} to fuzz for real.
 */
class DocumentJsonFuzzTest {

    private static final DocumentJsonReader STRICT = DocumentJsonReader.strict(TYPES);
    private static final DocumentJsonReader LENIENT = DocumentJsonReader.lenient(TYPES);

    @FuzzTest(maxDuration = "60s")
    void readPut_anyBytes_givesDocumentOrTypedError(byte[] body) {
        for (DocumentJsonReader reader : new DocumentJsonReader[] { STRICT, LENIENT }) {
            try {
                ParsedPut put = reader.readPut(ID, body);
                DocumentJsonWriter.create().toJson(put.document());
            } catch (DocumentJsonException expected) {
                // the only acceptable failure
            }
        }
    }
}
