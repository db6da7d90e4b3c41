package io.sluice.content;

import io.sluice.content.Outcome.Status;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldSet;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;
import io.sluice.document.TestUpdates;
import io.sluice.document.json.FieldsJson;
import io.sluice.document.select.DocumentSelection;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The contract's decision table, without any engine: one test per row. */
class WriteRulesTest {

    private static final DocumentType MUSIC = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .build();
    private static final DocumentId ID = DocumentId.of("id:ns:music::a");
    private static final Document BLUE = song("Blue", 1999);
    private static final ManualClock CLOCK = new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));

    private static Document song(String title, int year) {
        return Document.builder(MUSIC, ID).set("title", new StringValue(title)).set("year", new IntValue(year)).build();
    }

    /** A stored version that counts how often its document is read. */
    private static final class Stored implements Version {

        private final Document document;
        private final long timestamp;
        int reads;
        FieldsJson json; // null: the engine has no JSON of the fields

        Stored(Document document, long timestamp) {
            this.document = document;
            this.timestamp = timestamp;
        }

        static Stored live(Document document) {
            return new Stored(document, 7);
        }

        static Stored tombstone() {
            return new Stored(null, 9);
        }

        @Override
        public boolean isLive() {
            return document != null;
        }

        @Override
        public long timestamp() {
            return timestamp;
        }

        @Override
        public Document document() {
            reads++;
            if (document == null) {
                throw new AssertionError("the rules read the document of a tombstone");
            }
            return document;
        }

        @Override
        public Optional<FieldsJson> fieldsJson() {
            return Optional.ofNullable(json);
        }

    }

    private static FieldsJson fieldsJson(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        return new FieldsJson(bytes, 0, bytes.length);
    }

    private static OperationOptions plain() {
        return OperationOptions.until(Instant.MAX);
    }

    private static OperationOptions when(String condition) {
        return plain().withCondition(DocumentSelection.parse(condition));
    }

    private static DocumentUpdate setYear(int year) {
        return TestUpdates.assign(MUSIC, ID, "year", new IntValue(year));
    }

    @Test
    void put_plain_overNothing_writesNotFound() {
        Decision decision = WriteRules.put(BLUE, null, plain(), CLOCK);
        assertEquals(BLUE, decision.document());
        assertEquals(Outcome.written(5, false), decision.written(5));
    }

    @Test
    void put_plain_overLive_writesFound_withoutReadingTheDocument() {
        Stored previous = Stored.live(song("Green", 2001));
        Decision decision = WriteRules.put(BLUE, previous, plain(), CLOCK);
        assertEquals(Outcome.written(5, true), decision.written(5));
        assertEquals(0, previous.reads);
    }

    @Test
    void put_plain_overTombstone_writesNotFound() {
        assertEquals(Outcome.written(5, false), WriteRules.put(BLUE, Stored.tombstone(), plain(), CLOCK).written(5));
    }

    @Test
    void put_conditionHolding_writesFound() {
        Decision decision = WriteRules.put(song("Blue", 2000), Stored.live(BLUE), when("music.year == 1999"), CLOCK);
        assertEquals(Outcome.written(5, true), decision.written(5));
    }

    @Test
    void put_conditionNotHolding_answersConditionFailed() {
        Decision decision = WriteRules.put(BLUE, Stored.live(BLUE), when("music.year == 2000"), CLOCK);
        assertEquals(Outcome.conditionFailed("Condition 'music.year == 2000' is not met by document "
                                             + "'id:ns:music::a'"), decision.answer());
    }

    @Test
    void put_conditionOnMissing_answersConditionFailed() {
        Decision decision = WriteRules.put(BLUE, Stored.tombstone(), when("music.year == 1999"), CLOCK);
        assertEquals(Outcome.conditionFailed("Condition 'music.year == 1999' is not met: document "
                                             + "'id:ns:music::a' does not exist"), decision.answer());
    }

    @Test
    void put_conditionOnMissing_withCreate_writesAsIfUnconditional() {
        Decision decision = WriteRules.put(BLUE, null, when("music.year == 2000").withCreateIfNonExistent(true),
                                           CLOCK);
        assertEquals(Outcome.written(5, false), decision.written(5));
    }

    @Test
    void update_live_appliesToStoredDocument_readingItOnce() {
        Stored previous = Stored.live(BLUE);
        Decision decision = WriteRules.update(setYear(2020), previous, when("music.year == 1999"), CLOCK);
        assertEquals(song("Blue", 2020), decision.document());
        assertEquals(Outcome.written(5, true), decision.written(5));
        assertEquals(1, previous.reads);
    }

    @Test
    void update_conditionNotHolding_answersConditionFailed() {
        Decision decision = WriteRules.update(setYear(2020), Stored.live(BLUE), when("music.year == 2000"), CLOCK);
        assertEquals(Status.CONDITION_FAILED, decision.answer().status());
    }

    @Test
    void update_missing_answersMissing() {
        assertEquals(Outcome.missing(), WriteRules.update(setYear(2020), Stored.tombstone(), plain(), CLOCK).answer());
    }

    @Test
    void update_missingWithCondition_answersConditionFailed() {
        Decision decision = WriteRules.update(setYear(2020), null, when("music.year == 1999"), CLOCK);
        assertEquals(Status.CONDITION_FAILED, decision.answer().status());
    }

    @Test
    void update_missingWithCreate_appliesToEmptyDocument_ignoringCondition() {
        Decision decision = WriteRules.update(setYear(2020).withCreateIfNonExistent(true), null,
                                              when("music.year == 1999"), CLOCK);
        assertEquals(Document.of(MUSIC, ID).with("year", new IntValue(2020)), decision.document());
        assertEquals(Outcome.written(5, false), decision.written(5));
    }

    @Test
    void update_missingWithCreateInOptions_appliesToEmptyDocument() {
        Decision decision = WriteRules.update(setYear(2020), null, plain().withCreateIfNonExistent(true), CLOCK);
        assertEquals(Document.of(MUSIC, ID).with("year", new IntValue(2020)), decision.document());
    }

    @Test
    void remove_live_writesTombstoneFound() {
        Decision decision = WriteRules.remove(ID, Stored.live(BLUE), plain(), CLOCK);
        assertTrue(decision.isTombstone());
        assertEquals(Outcome.written(5, true), decision.written(5));
    }

    @Test
    void remove_missing_answersMissing() {
        assertEquals(Outcome.missing(), WriteRules.remove(ID, Stored.tombstone(), plain(), CLOCK).answer());
    }

    @Test
    void remove_missingWithCondition_answersConditionFailed() {
        assertEquals(Status.CONDITION_FAILED, WriteRules.remove(ID, null, when("true"), CLOCK).answer().status());
    }

    @Test
    void remove_conditionNotHolding_answersConditionFailed_andWritesNothing() {
        Decision decision = WriteRules.remove(ID, Stored.live(BLUE), when("music.year == 2000"), CLOCK);
        assertTrue(decision.isAnswer());
        assertFalse(decision.isTombstone());
    }

    @Test
    void get_live_returnsFilteredDocumentWithItsTimestamp() {
        Outcome outcome = WriteRules.get(ID, Stored.live(BLUE), FieldSet.none(), plain(), CLOCK);
        assertEquals(Outcome.found(Document.of(MUSIC, ID), 7), outcome);
        assertEquals(Map.of(), outcome.document().orElseThrow().fields());
    }

    @Test
    void get_wholeDocumentOfVersionWithFieldsJson_answersWithThem_andDecodesOnlyWhenAsked() {
        Stored stored = Stored.live(BLUE);
        stored.json = fieldsJson("{\"title\":\"Blue\",\"year\":1999}");

        Outcome outcome = WriteRules.get(ID, stored, FieldSet.document(), plain(), CLOCK);

        assertEquals(Optional.of(stored.json), outcome.fieldsJson());
        assertEquals(7, outcome.timestamp());
        assertEquals(0, stored.reads);
        assertEquals(BLUE, outcome.document().orElseThrow());
        assertEquals(BLUE, outcome.document().orElseThrow());
        assertEquals(1, stored.reads);
    }

    @Test
    void get_filteredOrConditional_readsTheDocument_evenWithFieldsJson() {
        Stored stored = Stored.live(BLUE);
        stored.json = fieldsJson("{\"title\":\"Blue\",\"year\":1999}");

        assertTrue(WriteRules.get(ID, stored, FieldSet.none(), plain(), CLOCK).fieldsJson().isEmpty());
        assertTrue(WriteRules.get(ID, stored, FieldSet.all(), when("music.year == 1999"), CLOCK).fieldsJson().isEmpty());
        assertEquals(2, stored.reads);
    }

    @Test
    void get_tombstone_isNotFound() {
        assertEquals(Outcome.notFound("Document 'id:ns:music::a' not found"),
                     WriteRules.get(ID, Stored.tombstone(), FieldSet.all(), plain(), CLOCK));
    }

    @Test
    void get_conditionNotHolding_answersConditionFailed() {
        assertEquals(Status.CONDITION_FAILED,
                     WriteRules.get(ID, Stored.live(BLUE), FieldSet.all(), when("music.year == 1"), CLOCK).status());
    }

    @Test
    void needsDocument_onlyWithCondition() {
        assertFalse(WriteRules.needsDocument(plain().withCreateIfNonExistent(true)));
        assertTrue(WriteRules.needsDocument(when("true")));
    }

    @Test
    void putWithoutRead_plain_writesWithUnknownFound() {
        Outcome outcome = WriteRules.putWithoutRead(BLUE, plain()).written(5);
        assertEquals(Outcome.writtenWithoutRead(5), outcome);
        assertFalse(outcome.foundKnown());
        assertFalse(outcome.found());
    }

    @Test
    void removeWithoutRead_plain_writesTombstoneWithUnknownFound() {
        Decision decision = WriteRules.removeWithoutRead(ID, plain());
        assertTrue(decision.isTombstone());
        assertFalse(decision.written(5).foundKnown());
    }

    @Test
    void withoutRead_withCondition_isRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                                  () -> WriteRules.putWithoutRead(BLUE, when("music.year == 1")));
        assertEquals("The put of 'id:ns:music::a' has condition 'music.year == 1', which needs the stored document",
                     e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> WriteRules.removeWithoutRead(ID, when("true")));
    }

    @Test
    void decision_answerHasNoWrite_andWriteHasNoAnswer() {
        assertThrows(IllegalStateException.class, () -> Decision.answer(Outcome.missing()).written(1));
        assertThrows(IllegalStateException.class, () -> Decision.tombstone().answer());
        assertThrows(IllegalStateException.class, () -> Decision.tombstone().document());
    }

}
