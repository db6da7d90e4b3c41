package io.sluice.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class FieldSetTest {

    private static final DocumentType BASE = DocumentType.builder("base").field("title", PrimitiveType.STRING).build();
    private static final DocumentType MUSIC = DocumentType.builder("music")
            .inherit(BASE)
            .field("artist", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .fieldSet("brief", List.of("title", "artist"))
            .build();
    private static final DocumentType BOOK = DocumentType.builder("book").field("title", PrimitiveType.STRING).build();
    private static final DocumentTypes TYPES = DocumentTypes.of(List.of(MUSIC, BOOK));

    private static final Document SONG = Document.of(MUSIC, DocumentId.of("id:ns:music::1"))
            .with("title", new StringValue("t"))
            .with("artist", new StringValue("a"))
            .with("year", new IntValue(1));

    private static Set<String> kept(String spec, Document document) {
        return FieldSet.parse(spec, TYPES).filter(document).fields().keySet();
    }

    @Test
    void all_keepsEverything() {
        assertEquals(Set.of("title", "artist", "year"), kept("[all]", SONG));
        assertEquals(Set.of("title", "artist", "year"), kept("[document]", SONG));
    }

    @Test
    void idAndNone_keepNothing() {
        assertEquals(Set.of(), kept("[id]", SONG));
        assertEquals(Set.of(), kept("[docid]", SONG));
        assertEquals(Set.of(), kept("[none]", SONG));
        assertFalse(FieldSet.parse("[id]", TYPES).hasFields());
    }

    @Test
    void typeDocument_keepsEverythingOfThatType() {
        assertEquals(Set.of("title", "artist", "year"), kept("music:[document]", SONG));
    }

    @Test
    void typeDocument_keepsNothingOfOtherType() {
        assertEquals(Set.of(), kept("book:[document]", SONG));
    }

    @Test
    void inheritedType_matchesSubtype() {
        assertEquals(Set.of("title"), kept("base:title", SONG));
    }

    @Test
    void fieldList_keepsListedFields() {
        assertEquals(Set.of("title", "year"), kept("music:title,year", SONG));
    }

    @Test
    void namedFieldSet_expandsToItsFields() {
        assertEquals(Set.of("title", "artist"), kept("music:brief", SONG));
    }

    @Test
    void includes_answersPerField() {
        FieldSet set = FieldSet.parse("music:year", TYPES);
        assertTrue(set.includes(MUSIC, "year"));
        assertFalse(set.includes(MUSIC, "title"));
        assertFalse(set.includes(BOOK, "year"));
    }

    @Test
    void unknownField_fails() {
        FieldSetException e = assertThrows(FieldSetException.class, () -> FieldSet.parse("music:nope", TYPES));
        assertEquals("Invalid field set 'music:nope': document type 'music' has no field or field set 'nope'",
                     e.getMessage());
    }

    @Test
    void unknownType_fails() {
        FieldSetException e = assertThrows(FieldSetException.class, () -> FieldSet.parse("video:[document]", TYPES));
        assertTrue(e.getMessage().contains("'video'"));
    }

    @Test
    void malformed_fails() {
        assertThrows(FieldSetException.class, () -> FieldSet.parse("[some]", TYPES));
        assertThrows(FieldSetException.class, () -> FieldSet.parse("music:", TYPES));
        assertThrows(FieldSetException.class, () -> FieldSet.parse("", TYPES));
        assertThrows(FieldSetException.class, () -> FieldSet.parse("music:title,", TYPES));
    }

    @Test
    void toString_isTheSpec() {
        assertEquals("music:title,year", FieldSet.parse("music:title,year", TYPES).toString());
    }
}
