package io.sluice.container.document;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.content.VisitEntry;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;
import io.sluice.document.json.FieldsJson;
import io.sluice.document.json.TensorFormat;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Visited documents whose engine holds their fields as JSON are written from those bytes when the format allows. */
class VisitFormatTest {

    private static final DocumentType MUSIC = DocumentType.builder("music").field("artist", PrimitiveType.STRING)
                                                          .field("year", PrimitiveType.INT).build();
    private static final DocumentId ID = DocumentId.of("id:ns:music::one");
    private static final Document SONG = Document.builder(MUSIC, ID).set("artist", new StringValue("Tom Waits"))
                                                 .set("year", new IntValue(1983)).build();
    /** An order the writer never uses, so the test sees which path wrote the fields. */
    private static final String STORED = "{\"year\":1983,\"artist\":\"Tom Waits\"}";

    private final AtomicInteger decoded = new AtomicInteger();

    private VisitEntry stored() {
        byte[] bytes = ("--" + STORED).getBytes(StandardCharsets.UTF_8);
        return VisitEntry.put(ID, new FieldsJson(bytes, 2, bytes.length - 2), () -> {
            decoded.incrementAndGet();
            return SONG;
        }, 5, 100);
    }

    private static String render(VisitFormat format, List<VisitEntry> entries) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
            format.start(json);
            for (VisitEntry entry : entries)
                format.entry(json, entry);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void jsonObject_writesStoredFieldsAsTheyAre() throws IOException {
        assertEquals("{\"pathId\":\"/document/v1/\",\"documents\":[{\"id\":\"id:ns:music::one\",\"fields\":" + STORED + "},"
                     + "{\"id\":\"id:ns:music::one\",\"fields\":" + STORED + "}]}",
                     render(VisitFormat.json("/document/v1/", TensorFormat.SHORT), List.of(stored(), stored())));
        assertEquals(0, decoded.get());
    }

    @Test
    void jsonLines_writesStoredFieldsAsTheyAre() throws IOException {
        assertEquals("{\"put\":\"id:ns:music::one\",\"fields\":" + STORED + "}\n",
                     render(VisitFormat.jsonLines(TensorFormat.SHORT), List.of(stored())));
        assertEquals(0, decoded.get());
    }

    @Test
    void otherTensorFormat_writesTheDecodedDocument() throws IOException {
        assertEquals("{\"put\":\"id:ns:music::one\",\"fields\":{\"artist\":\"Tom Waits\",\"year\":1983}}\n",
                     render(VisitFormat.jsonLines(TensorFormat.LONG), List.of(stored())));
        assertEquals(1, decoded.get());
    }

}
