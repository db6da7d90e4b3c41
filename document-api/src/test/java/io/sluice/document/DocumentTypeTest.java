package io.sluice.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class DocumentTypeTest {

    private static final DocumentType BASE = DocumentType.builder("base")
            .field("title", PrimitiveType.STRING)
            .struct(StructType.of("person", List.of(new Field("name", PrimitiveType.STRING))))
            .build();

    private static final DocumentType MUSIC = DocumentType.builder("music")
            .inherit(BASE)
            .field("year", PrimitiveType.INT)
            .fieldSet("brief", List.of("title", "year"))
            .build();

    @Test
    void fields_inheritedFirst() {
        assertEquals(List.of("title", "year"),
                     MUSIC.fields().stream().map(Field::name).collect(Collectors.toList()));
    }

    @Test
    void struct_isInherited() {
        assertTrue(MUSIC.struct("person").isPresent());
    }

    @Test
    void isA_followsInheritance() {
        assertTrue(MUSIC.isA("base"));
        assertTrue(MUSIC.isA("music"));
        assertFalse(BASE.isA("music"));
    }

    @Test
    void build_fieldRedeclaredWithOtherType_fails() {
        DocumentType.Builder builder = DocumentType.builder("x").inherit(BASE).field("title", PrimitiveType.INT);
        assertThrows(DocumentException.class, builder::build);
    }

    @Test
    void build_fieldSetWithUnknownField_fails() {
        DocumentType.Builder builder = DocumentType.builder("x").fieldSet("s", List.of("nope"));
        assertThrows(DocumentException.class, builder::build);
    }

    @Test
    void registry_includesParents() {
        DocumentTypes types = DocumentTypes.of(List.of(MUSIC));
        assertEquals(List.of("base", "music"),
                     types.all().stream().map(DocumentType::name).collect(Collectors.toList()));
    }

    @Test
    void registry_unknownType_usesSpecMessage() {
        DocumentException e = assertThrows(DocumentException.class,
                                           () -> DocumentTypes.of(List.of(MUSIC)).get("book"));
        assertEquals("Document type book does not exist", e.getMessage());
    }

    @Test
    void typeNames_areSchemaSpelling() {
        assertEquals("map<string,array<int>>",
                     new MapType(PrimitiveType.STRING, new ArrayType(PrimitiveType.INT)).typeName());
        assertEquals("weightedset<string>", WeightedSetType.of(PrimitiveType.STRING).typeName());
        assertEquals("reference<artist>", new ReferenceType("artist").typeName());
    }

    @Test
    void fingerprint_isTheSameForTheSameSchema_andChangesWithAnyFieldOrStruct() {
        StructType place = StructType.of("place", List.of(new Field("city", PrimitiveType.STRING)));
        DocumentType one = DocumentType.builder("venue").field("name", PrimitiveType.STRING).field("at", place).struct(place).build();
        DocumentType same = DocumentType.builder("venue").field("name", PrimitiveType.STRING).field("at", place).struct(place).build();
        StructType bigger = StructType.of("place", List.of(new Field("city", PrimitiveType.STRING), new Field("zip", PrimitiveType.INT)));

        assertEquals(one.fingerprint(), same.fingerprint());
        assertFalse(one.fingerprint() == DocumentType.builder("venue").field("name", PrimitiveType.STRING).build().fingerprint());
        assertFalse(one.fingerprint() == DocumentType.builder("venue").field("name", PrimitiveType.INT).field("at", place)
                                                     .struct(place).build().fingerprint());
        assertFalse(one.fingerprint() == DocumentType.builder("venue").field("name", PrimitiveType.STRING).field("at", bigger)
                                                     .struct(bigger).build().fingerprint());
    }

    @Test
    void fingerprint_ofATypeWithPredicates_differsFromTheOneBeforePredicatesWereReadCanonical() {
        // The fingerprint used to be the hash of the name and the fields with their types alone. JSON stored under
        // it may hold predicates in forms other than the reader now makes, so it must not pass for current.
        assertEquals("ad\ntitle string".hashCode(),
                     DocumentType.builder("ad").field("title", PrimitiveType.STRING).build().fingerprint());
        assertNotEquals("ad\ntarget predicate".hashCode(),
                        DocumentType.builder("ad").field("target", PrimitiveType.PREDICATE).build().fingerprint());
        assertNotEquals("ad\ntargets array<predicate>".hashCode(),
                        DocumentType.builder("ad").field("targets", new ArrayType(PrimitiveType.PREDICATE)).build()
                                    .fingerprint());
    }
}
