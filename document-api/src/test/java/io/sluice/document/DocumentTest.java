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
    void fields_areInTheTypesOrder_andUnmodifiable() {
        Document document = Document.builder(MUSIC, ID)
                                    .set("year", new IntValue(1999))
                                    .set("title", new StringValue("Blue"))
                                    .build();
        assertEquals(List.of("title", "year"), List.copyOf(document.fields().keySet()));
        List<String> visited = new java.util.ArrayList<>();
        document.fields().forEach((name, value) -> visited.add(name));
        assertEquals(List.of("title", "year"), visited);
        assertEquals(2, document.fields().size());
        assertTrue(document.fields().containsKey("year"));
        assertFalse(document.fields().containsKey("tags"));
        assertFalse(document.fields().containsKey("nope"));
        assertEquals(null, document.fields().get(42));
        assertEquals(Map.of("title", new StringValue("Blue"), "year", new IntValue(1999)), document.fields());
        assertEquals(document.fields(), Map.of("title", new StringValue("Blue"), "year", new IntValue(1999)));
        assertEquals(Map.of("title", new StringValue("Blue"), "year", new IntValue(1999)).hashCode(),
                     document.fields().hashCode());
        assertThrows(UnsupportedOperationException.class, () -> document.fields().put("tags", ArrayValue.EMPTY));
        assertThrows(UnsupportedOperationException.class, () -> document.fields().remove("title"));
        assertThrows(UnsupportedOperationException.class, () -> document.fields().entrySet().iterator().remove());
        assertThrows(UnsupportedOperationException.class, () -> document.fields().clear());
    }

    @Test
    void builder_changesAfterBuild_reachNoBuiltDocument() {
        Document.Builder builder = Document.builder(MUSIC, ID).set("title", new StringValue("Blue"));
        Document first = builder.build();
        Document second = builder.set("title", new StringValue("Green")).set("year", new IntValue(1)).build();
        Document third = builder.clear("title").build();
        assertEquals(Map.of("title", new StringValue("Blue")), first.fields());
        assertEquals(Map.of("title", new StringValue("Green"), "year", new IntValue(1)), second.fields());
        assertEquals(Map.of("year", new IntValue(1)), third.fields());

        Document fromFirst = first.toBuilder().set("year", new IntValue(2)).build();
        assertEquals(Map.of("title", new StringValue("Blue")), first.fields());
        assertEquals(Map.of("title", new StringValue("Blue"), "year", new IntValue(2)), fromFirst.fields());
        assertEquals(first, first.toBuilder().build());
    }

    @Test
    void withOnly_keepsTheChosenFields() {
        Document document = Document.builder(MUSIC, ID)
                                    .set("title", new StringValue("Blue"))
                                    .set("year", new IntValue(1999))
                                    .build();
        assertEquals(Map.of("year", new IntValue(1999)), document.withOnly("year"::equals).fields());
        assertTrue(document.withOnly(name -> true) == document);
        assertTrue(document.withOnly(name -> false).fields().isEmpty());
        assertEquals(2, document.fields().size());
    }

    @Test
    void withIdInstance_takesAnEqualIdObject_andRefusesAnother() {
        Document document = Document.of(MUSIC, DocumentId.of("id:ns:music::one")).with("year", new IntValue(1));
        DocumentId equal = DocumentId.of("id:ns:music::one");
        Document rekeyed = document.withIdInstance(equal);
        assertTrue(rekeyed.id() == equal);
        assertEquals(document, rekeyed);
        assertTrue(rekeyed.withIdInstance(equal) == rekeyed);
        assertThrows(IllegalArgumentException.class, () -> document.withIdInstance(DocumentId.of("id:ns:music::two")));
    }

    @Test
    void arrayIndexOutOfRange_namesIndex() {
        DocumentException e = assertThrows(DocumentException.class,
                                           () -> ArrayValue.of(new IntValue(1)).withElement(3, new IntValue(2)));
        assertTrue(e.getMessage().contains("3"));
    }
}
