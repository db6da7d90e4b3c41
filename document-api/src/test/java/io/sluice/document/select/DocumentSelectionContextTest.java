package io.sluice.document.select;

import io.sluice.document.ArrayType;
import io.sluice.document.ArrayValue;
import io.sluice.document.BoolValue;
import io.sluice.document.ByteValue;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.Field;
import io.sluice.document.FloatValue;
import io.sluice.document.IntValue;
import io.sluice.document.MapType;
import io.sluice.document.MapValue;
import io.sluice.document.PositionValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.RawValue;
import io.sluice.document.StringValue;
import io.sluice.document.StructType;
import io.sluice.document.StructValue;
import io.sluice.document.WeightedSetType;
import io.sluice.document.WeightedSetValue;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DocumentSelectionContextTest {

    private static final StructType PERSON = StructType.of("person", List.of(new Field("name", PrimitiveType.STRING),
                                                                             new Field("age", PrimitiveType.INT)));
    private static final DocumentType BASE = DocumentType.builder("base").field("title", PrimitiveType.STRING).build();
    private static final DocumentType MUSIC = DocumentType.builder("music")
            .inherit(BASE)
            .struct(PERSON)
            .field("year", PrimitiveType.INT)
            .field("rating", PrimitiveType.FLOAT)
            .field("small", PrimitiveType.BYTE)
            .field("live", PrimitiveType.BOOL)
            .field("data", PrimitiveType.RAW)
            .field("where", PrimitiveType.POSITION)
            .field("tags", new ArrayType(PrimitiveType.STRING))
            .field("counts", new MapType(PrimitiveType.STRING, PrimitiveType.INT))
            .field("genres", WeightedSetType.of(PrimitiveType.STRING))
            .field("artist", PERSON)
            .build();
    private static final DocumentId ID = DocumentId.of("id:ns:music::a");

    private static Object view(String field, io.sluice.document.FieldValue value) {
        return DocumentSelectionContext.of(Document.of(MUSIC, ID).with(field, value)).fieldValue(field);
    }

    @Test
    void integers_areLongs() {
        assertEquals(1999L, view("year", new IntValue(1999)));
        assertEquals(7L, view("small", new ByteValue((byte) 7)));
    }

    @Test
    void floats_areDoubles() {
        assertEquals(2.5, view("rating", new FloatValue(2.5f)));
    }

    @Test
    void stringsAndBooleans_arePlain() {
        assertEquals("Blue", view("title", new StringValue("Blue")));
        assertEquals(Boolean.TRUE, view("live", BoolValue.TRUE));
    }

    @Test
    void raw_isBytes() {
        assertArrayEquals(new byte[] { 1, 2 }, (byte[]) view("data", RawValue.of(new byte[] { 1, 2 })));
    }

    @Test
    void array_isListOfViews() {
        assertEquals(List.of("a", "b"), view("tags", ArrayValue.of(new StringValue("a"), new StringValue("b"))));
    }

    @Test
    void map_isMapOfViews() {
        assertEquals(Map.of("a", 1L), view("counts", new MapValue(Map.of(new StringValue("a"), new IntValue(1)))));
    }

    @Test
    void weightedSet_isMapToLongWeights() {
        assertEquals(Map.of("rock", 10L), view("genres", new WeightedSetValue(Map.of(new StringValue("rock"), 10))));
    }

    @Test
    void struct_isStructOfSetFields() {
        assertEquals(new SelectionContext.Struct(Map.of("name", "Bob")),
                     view("artist", new StructValue(Map.of("name", new StringValue("Bob")))));
    }

    @Test
    void position_isStructOfMicroDegreesXLongitudeYLatitude() {
        assertEquals(new SelectionContext.Struct(Map.of("x", 2L, "y", 1L)), view("where", new PositionValue(1, 2)));
    }

    @Test
    void unsetField_isNull() {
        assertNull(DocumentSelectionContext.of(Document.of(MUSIC, ID)).fieldValue("title"));
    }

    @Test
    void isOfType_honoursInheritance() {
        SelectionContext context = DocumentSelectionContext.of(Document.of(MUSIC, ID));
        assertTrue(context.isOfType("base"));
        assertFalse(context.isOfType("book"));
    }

    @Test
    void removed_hasNoFieldsButKnowsItsType() {
        SelectionContext context = DocumentSelectionContext.removed(ID, MUSIC);
        assertFalse(context.hasFields());
        assertTrue(context.isOfType("base"));
        assertNull(context.fieldValue("title"));
    }

    @Test
    void selection_matchesDocumentThroughView() {
        Document document = Document.of(MUSIC, ID)
                .with("tags", ArrayValue.of(new StringValue("jazz"), new StringValue("rock")))
                .with("artist", new StructValue(Map.of("age", new IntValue(40))));
        DocumentSelection selection = DocumentSelection.parse("music.tags == 'rock' and music.artist.age > 30");
        assertTrue(selection.matches(DocumentSelectionContext.of(document), Clock.systemUTC()));
    }

    @Test
    void selection_onFieldOfRemoved_isInvalid() {
        DocumentSelection selection = DocumentSelection.parse("music.year > 0");
        assertEquals(Result.INVALID,
                     selection.evaluate(DocumentSelectionContext.removed(ID, MUSIC), Clock.systemUTC()));
    }

}
