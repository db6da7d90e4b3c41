package io.sluice.content.embedded;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;
import io.sluice.document.json.DocumentJsonReader;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StoredValueTest {

    private static final DocumentType MUSIC = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .build();
    private static final DocumentJsonReader READER = DocumentJsonReader.lenient(DocumentTypes.of(List.of(MUSIC)));
    private static final DocumentId ID = DocumentId.of("id:ns:music::a");
    private static final Document SONG = Document.builder(MUSIC, ID).set("title", new StringValue("Hey"))
                                                 .set("year", new IntValue(1999)).build();

    @Test
    void document_roundTrips_andOffersItsFieldsAsWritten() {
        byte[] value = StoredValue.document(SONG, 42);

        assertTrue(StoredValue.isLive(value));
        assertEquals(42, StoredValue.timestamp(value));
        assertEquals(SONG, StoredValue.decode(ID, value, READER));
        assertEquals("{\"title\":\"Hey\",\"year\":1999}", StoredValue.fieldsJson(value, MUSIC).orElseThrow().toString());
    }

    @Test
    void fieldsJson_underAnotherSchema_isEmpty() {
        byte[] value = StoredValue.document(SONG, 42);
        DocumentType yearAsString = DocumentType.builder("music").field("title", PrimitiveType.STRING)
                                                .field("year", PrimitiveType.STRING).build();
        DocumentType sameAgain = DocumentType.builder("music").field("title", PrimitiveType.STRING)
                                             .field("year", PrimitiveType.INT).build();

        assertTrue(StoredValue.fieldsJson(value, yearAsString).isEmpty());
        assertEquals(MUSIC.fingerprint(), sameAgain.fingerprint());
        assertTrue(StoredValue.fieldsJson(value, sameAgain).isPresent());
    }

    @Test
    void olderLiveKind_withoutFingerprint_isDecodedButNeverSentAsItIs() {
        byte[] json = "{\"fields\":{\"title\":\"Hey\",\"year\":1999}}".getBytes(StandardCharsets.UTF_8);
        byte[] value = ByteBuffer.allocate(StoredValue.HEADER_BYTES + json.length).put((byte) 1).putLong(7).put(json).array();

        assertTrue(StoredValue.isLive(value));
        assertEquals(7, StoredValue.timestamp(value));
        assertEquals(SONG, StoredValue.decode(ID, value, READER));
        assertTrue(StoredValue.fieldsJson(value, MUSIC).isEmpty());
    }

    @Test
    void tombstone_isNotLive_andUnknownKindsFail() {
        assertFalse(StoredValue.isLive(StoredValue.tombstone(5)));
        assertEquals(5, StoredValue.timestamp(StoredValue.tombstone(5)));
        byte[] future = StoredValue.tombstone(5);
        future[0] = 3;
        assertThrows(IllegalStateException.class, () -> StoredValue.isLive(future));
    }

}
