package io.sluice.document.json;

import static io.sluice.document.json.TestTypes.ID;
import static io.sluice.document.json.TestTypes.TYPES;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.document.Document;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class JsonRandomRoundTripTest {

    @Test
    void writeThenRead_randomDocumentsInEveryTensorFormat_giveSameDocument() throws IOException {
        RandomDocuments random = new RandomDocuments(20261122);
        for (int i = 0; i < 300; i++) {
            Document document = random.document(TYPES.get("all"), ID);
            for (TensorFormat format : TensorFormat.values()) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                try (JsonGenerator generator = DocumentJson.factory().createGenerator(out)) {
                    DocumentJsonWriter.of(format).writeFields(generator, document);
                }
                Document read = DocumentJsonReader.strict(TYPES).readFields(ID, out.toByteArray()).document();
                assertEquals(document, read, () -> format + ": " + out);
            }
        }
    }
}
