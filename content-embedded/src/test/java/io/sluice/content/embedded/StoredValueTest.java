package io.sluice.content.embedded;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.IntValue;
import io.sluice.document.PredicateValue;
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
    void predicatesStoredBeforeTheyWereCanonical_areDecoded_canonicalIfTheyParse_elseAsTheyAre() {
        DocumentType ad = DocumentType.builder("ad").field("target", PrimitiveType.PREDICATE).build();
        DocumentJsonReader stored = DocumentJsonReader.stored(DocumentTypes.of(List.of(ad)));
        DocumentId id = DocumentId.of("id:ns:ad::a");
        int fingerprintBefore = "ad\ntarget predicate".hashCode();

        byte[] valid = storedBefore(fingerprintBefore, "{\"fields\":{\"target\":\"b IN [y,x]\"}}");
        assertTrue(StoredValue.fieldsJson(valid, ad).isEmpty());
        assertEquals(new PredicateValue("b in [x, y]"), StoredValue.decode(id, valid, stored).fields().get("target"));

        byte[] invalid = storedBefore(fingerprintBefore, "{\"fields\":{\"target\":\"b = x\"}}");
        assertEquals(new PredicateValue("b = x"), StoredValue.decode(id, invalid, stored).fields().get("target"));
    }

    @Test
    void predicate_isStoredCanonical_andSentAsItIs() {
        DocumentType ad = DocumentType.builder("ad").field("target", PrimitiveType.PREDICATE).build();
        DocumentId id = DocumentId.of("id:ns:ad::a");
        Document document = Document.builder(ad, id).set("target", PredicateValue.parse("b IN [y,x]")).build();

        byte[] value = StoredValue.document(document, 3);
        assertEquals("{\"target\":\"b in [x, y]\"}", StoredValue.fieldsJson(value, ad).orElseThrow().toString());
        assertEquals(document, StoredValue.decode(id, value, DocumentJsonReader.stored(DocumentTypes.of(List.of(ad)))));
    }

    private static byte[] storedBefore(int fingerprint, String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(StoredValue.HEADER_BYTES + Integer.BYTES + bytes.length)
                         .put((byte) 2).putLong(7).putInt(fingerprint).put(bytes).array();
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
