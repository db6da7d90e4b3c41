package io.sluice.document;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sluice.document.UpdateFixture.ID;
import static io.sluice.document.UpdateFixture.SHOP;
import static io.sluice.document.UpdateFixture.doc;
import static io.sluice.document.UpdateFixture.str;
import static io.sluice.document.UpdateFixture.strings;
import static io.sluice.document.UpdateFixture.update;
import static io.sluice.document.ValueUpdate.Arithmetic.Operator.INCREMENT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The update as a whole: ids, create-if-nonexistent, ordering, purity and field checks. */
class DocumentUpdateTest {

    @Test
    void createIfNonExistent_appliedToEmptyDocument_createsIt() {
        DocumentUpdate update = update().update("title", new ValueUpdate.Assign(str("t")))
                                        .update("count", new ValueUpdate.Arithmetic(INCREMENT, 2))
                                        .createIfNonExistent(true)
                                        .build();
        assertTrue(update.createIfNonExistent());
        assertEquals(doc("title", str("t"), "count", new IntValue(2)), update.applyTo(Document.of(SHOP, ID)));
    }

    @Test
    void withCreateIfNonExistent_changesOnlyTheFlag() {
        DocumentUpdate update = update().update("title", new ValueUpdate.Assign(str("t"))).build();
        DocumentUpdate creating = update.withCreateIfNonExistent(true);
        assertFalse(update.createIfNonExistent());
        assertTrue(creating.createIfNonExistent());
        assertEquals(update.fieldUpdates(), creating.fieldUpdates());
        assertEquals(update, creating.withCreateIfNonExistent(false));
    }

    @Test
    void applyTo_doesNotChangeTheInputDocument() {
        Document before = doc("tags", strings("a"));
        update().update("tags", new ValueUpdate.AddElements(List.of(str("b")))).build().applyTo(before);
        assertEquals(doc("tags", strings("a")), before);
    }

    @Test
    void applyTo_keepsFieldsNotUpdated() {
        assertEquals(doc("title", str("t"), "count", new IntValue(1)),
                     update().update("count", new ValueUpdate.Assign(new IntValue(1))).build()
                             .applyTo(doc("title", str("t"))));
    }

    @Test
    void emptyUpdate_leavesDocumentAsIs() {
        DocumentUpdate update = update().build();
        assertTrue(update.isEmpty());
        assertEquals(doc("title", str("t")), update.applyTo(doc("title", str("t"))));
    }

    @Test
    void withId_appliesTheSameOperationsToAnotherDocument() {
        DocumentId other = DocumentId.of("id:ns:shop::2");
        DocumentUpdate update = update().update("title", new ValueUpdate.Assign(str("t"))).build().withId(other);
        assertEquals(other, update.id());
        assertEquals(Document.builder(SHOP, other).set("title", str("t")).build(), update.applyTo(Document.of(SHOP, other)));
    }

    @Test
    void withId_ofAnotherType_isRejected() {
        DocumentUpdate update = update().build();
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class,
                                                () -> update.withId(DocumentId.of("id:ns:music::1")));
        assertEquals("Document id 'id:ns:music::1' does not belong to document type 'shop'", e.getMessage());
    }

    @Test
    void applyTo_documentWithAnotherId_isRejected() {
        DocumentUpdate update = update().build();
        assertThrows(InvalidUpdateException.class,
                     () -> update.applyTo(Document.of(SHOP, DocumentId.of("id:ns:shop::2"))));
    }

    @Test
    void builder_unknownField_isRejectedNamingIt() {
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class,
                () -> update().update("nope", new ValueUpdate.Clear()));
        assertEquals("No field named 'nope' in document type 'shop'", e.getMessage());
    }

    @Test
    void builder_idOfAnotherType_isRejected() {
        assertThrows(InvalidUpdateException.class, () -> DocumentUpdate.builder(SHOP, DocumentId.of("id:ns:music::1")));
    }

    @Test
    void fieldUpdates_areAppliedBeforeFieldPathUpdates_asInVespa() {
        DocumentUpdate update = update().update("m{a}", new FieldPathUpdate.Assign(new IntValue(5)))
                                        .update("m", new ValueUpdate.Assign(new MapValue(Map.of(str("a"), new IntValue(1)))))
                                        .build();
        assertEquals(doc("m", new MapValue(Map.of(str("a"), new IntValue(5)))), update.applyTo(doc()));
    }

    @Test
    void fieldPathUpdates_areAppliedInOrder() {
        DocumentUpdate update = update().update("m{a}", new FieldPathUpdate.Assign(new IntValue(5)))
                                        .update("m{a}", new FieldPathUpdate.Arithmetic(INCREMENT, 1))
                                        .update("m{b}", new FieldPathUpdate.Assign(new IntValue(1)))
                                        .update("m{b}", new FieldPathUpdate.Remove())
                                        .build();
        assertEquals(doc("m", new MapValue(Map.of(str("a"), new IntValue(6)))), update.applyTo(doc()));
    }

    @Test
    void equalUpdates_areEqual() {
        DocumentUpdate a = update().update("title", new ValueUpdate.Assign(str("t"))).update("m{k}", new FieldPathUpdate.Remove()).build();
        DocumentUpdate b = update().update("title", new ValueUpdate.Assign(str("t"))).update("m{k}", new FieldPathUpdate.Remove()).build();
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, update().update("title", new ValueUpdate.Assign(str("u"))).build());
    }
}
