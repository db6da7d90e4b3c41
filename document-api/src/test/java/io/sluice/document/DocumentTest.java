package io.sluice.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DocumentTest {

    private static final DocumentType MUSIC = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING)
            .field("tags", new ArrayType(PrimitiveType.STRING))
            .field("year", PrimitiveType.INT)
            .build();
    private static final DocumentId ID = DocumentId.of("id:ns:music::one");

    @Test
    void with_setsValueWithoutChangingOriginal() {
        Document empty = Document.of(MUSIC, ID);
        Document titled = empty.with("title", new StringValue("Blue"));
        assertEquals(Optional.of(new StringValue("Blue")), titled.value("title"));
        assertTrue(empty.fields().isEmpty());
    }

    @Test
    void with_emptyValue_clearsField() {
        Document document = Document.of(MUSIC, ID).with("title", new StringValue("Blue"));
        assertFalse(document.with("title", new StringValue("")).value("title").isPresent());
        assertFalse(document.with("tags", ArrayValue.EMPTY).value("tags").isPresent());
    }

    @Test
    void with_unknownField_namesField() {
        DocumentException e = assertThrows(DocumentException.class,
                                           () -> Document.of(MUSIC, ID).with("nope", new StringValue("x")));
        assertEquals("Field 'nope' is not defined in document type 'music'", e.getMessage());
    }

    @Test
    void with_wrongValueType_fails() {
        assertThrows(DocumentException.class, () -> Document.of(MUSIC, ID).with("year", new StringValue("x")));
        assertThrows(DocumentException.class,
                     () -> Document.of(MUSIC, ID).with("tags", ArrayValue.of(new IntValue(1))));
    }

    @Test
    void of_idOfOtherType_fails() {
        assertThrows(DocumentException.class, () -> Document.of(MUSIC, DocumentId.of("id:ns:book::one")));
    }

    @Test
    void without_removesField() {
        Document document = Document.of(MUSIC, ID).with("year", new IntValue(1999));
        assertEquals(Map.of(), document.without("year").fields());
    }

    @Test
    void equals_comparesIdAndValues() {
        Document a = Document.of(MUSIC, ID).with("year", new IntValue(1));
        Document b = Document.of(MUSIC, ID).with("year", new IntValue(1));
        assertEquals(a, b);
        assertFalse(a.equals(b.with("year", new IntValue(2))));
    }

    @Test
    void collectionWithers_returnModifiedCopies() {
        ArrayValue array = ArrayValue.of(new IntValue(1), new IntValue(2), new IntValue(1));
        assertEquals(ArrayValue.of(new IntValue(2)), array.withoutAll(List.of(new IntValue(1))));
        WeightedSetValue set = WeightedSetValue.EMPTY.with(new StringValue("a"), 3);
        assertEquals(3, set.weight(new StringValue("a")));
        assertTrue(set.without(new StringValue("a")).isEmpty());
        MapValue map = MapValue.EMPTY.with(new StringValue("k"), new IntValue(1));
        assertEquals(new IntValue(1), map.get(new StringValue("k")));
        assertEquals(3, array.size());
    }

    @Test
    void arrayIndexOutOfRange_namesIndex() {
        DocumentException e = assertThrows(DocumentException.class,
                                           () -> ArrayValue.of(new IntValue(1)).withElement(3, new IntValue(2)));
        assertTrue(e.getMessage().contains("3"));
    }
}
