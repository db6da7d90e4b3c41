package io.sluice.content.cassandra;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;
import io.sluice.document.json.FieldsJson;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Stored bodies: the fingerprint before the JSON decides whether a read may send the JSON as it is. */
class DocumentCodecTest {

    private static final DocumentId ID = DocumentId.of("id:ns:music::a");
    private static final DocumentType MUSIC = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING).field("year", PrimitiveType.INT).build();
    private static final DocumentType MUSIC_WITHOUT_YEAR = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING).build();
    private static final Document SONG = Document.builder(MUSIC, ID).set("title", new StringValue("Blue"))
                                                 .set("year", new IntValue(1999)).build();

    private final DocumentCodec codec = new DocumentCodec(DocumentTypes.of(List.of(MUSIC)));

    @Test
    void body_underTheSameSchema_decodes_andIsSentAsItIs() {
        byte[] body = codec.encode(SONG);
        assertEquals(SONG, codec.decode(ID, body));
        Optional<FieldsJson> json = codec.fieldsJson(MUSIC, body);
        assertTrue(json.isPresent());
        assertEquals("{\"title\":\"Blue\",\"year\":1999}", text(json.get()));
    }

    @Test
    void body_writtenUnderAnotherSchema_isDecoded_droppingWhatTheTypeNoLongerHas() {
        byte[] body = codec.encode(SONG);
        DocumentCodec today = new DocumentCodec(DocumentTypes.of(List.of(MUSIC_WITHOUT_YEAR)));
        assertFalse(today.fieldsJson(MUSIC_WITHOUT_YEAR, body).isPresent());
        assertEquals(Document.builder(MUSIC_WITHOUT_YEAR, ID).set("title", new StringValue("Blue")).build(),
                     today.decode(ID, body));
    }

    @Test
    void bareJsonBody_fromBeforeFingerprints_isDecoded_andNeverSentAsItIs() {
        byte[] body = "{\"title\":\"Blue\",\"year\":1999}".getBytes(StandardCharsets.UTF_8);
        assertEquals(SONG, codec.decode(ID, body));
        assertFalse(codec.fieldsJson(MUSIC, body).isPresent());
    }

    private static String text(FieldsJson json) {
        return new String(Arrays.copyOfRange(json.bytes(), json.offset(), json.offset() + json.length()),
                          StandardCharsets.UTF_8);
    }

}
