package io.sluice.document.select;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.IntValue;
import io.sluice.document.ReferenceValue;
import io.sluice.document.StringValue;
import io.sluice.document.DocumentTypes;
import io.sluice.document.schema.SchemaParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DocumentSelectionTest {

    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochSecond(1_700_000_000L), ZoneOffset.UTC);

    private static final SelectionContext MUSIC = SelectionContext.of(
            DocumentId.of("id:space:music:n=1234:song-1"),
            fields());

    private static Map<String, Object> fields() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("title", "Cold Play");
        fields.put("year", 2005L);
        fields.put("rating", 4.5);
        fields.put("explicit", false);
        fields.put("negative", -7L);
        fields.put("tags", List.of("rock", "pop"));
        fields.put("scores", List.of(3L, 9L));
        fields.put("counts", Map.of("plays", 100L, "skips", 3L));
        fields.put("genres", Map.of("rock", 10L, "indie", 5L));
        fields.put("artist", new SelectionContext.Struct(Map.of("name", "Coldplay", "founded", 1996L)));
        fields.put("tracks", List.of(new SelectionContext.Struct(Map.of("name", "Yellow")),
                                     new SelectionContext.Struct(Map.of("name", "Trouble"))));
        fields.put("byName", Map.of("a", new SelectionContext.Struct(Map.of("x", 1L))));
        fields.put("embedding", new Object());
        fields.put("raw", new byte[] {1, 2});
        return fields;
    }

    private static Result eval(String selection, SelectionContext document) {
        return DocumentSelection.parse(selection).evaluate(document, CLOCK);
    }

    private static Result eval(String selection) {
        return eval(selection, MUSIC);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", "true", "music", "music.title", "music.title == \"Cold Play\"", "music.title = \"Cold*\"",
            "music.title = \"C?ld Play\"", "music.title =~ \"old\"", "music.title =~ \"^Cold\"",
            "music.year == 2005", "music.year != 2004", "music.year > 2000", "music.year >= 2005",
            "music.year < 2006", "music.year <= 2005", "music.year == 2005.0", "music.rating > 4",
            "music.explicit == false", "music.explicit == 0", "music.title > \"A\"", "music.title < \"D\"",
            "music.year = \"20*\"", "music.year == \"2005\"",
            "music.tags == \"pop\"", "music.scores > 8", "music.counts == \"plays\"", "music.genres == \"indie\"",
            "music.counts{plays} == 100", "music.counts{\"skips\"} == 3", "music.genres{rock} == 10",
            "music.artist.name == \"Coldplay\"", "music.tracks.name == \"Trouble\"", "music.tracks[1].name == \"Trouble\"",
            "music.tags[0] == \"rock\"", "music.scores[$i] == 9", "music.counts{$k} == 3", "music.counts.key == \"skips\"",
            "music.counts.value == 100", "music.byName{a}.x == 1",
            "music.missing == null", "null == null", "music.title != null", "music.embedding == music.embedding or true",
            "music.embedding != null",
            "id == \"id:space:music:n=1234:song-1\"", "id.scheme == \"id\"", "id.namespace == \"space\"",
            "id.type == \"music\"", "id.specific == \"song-1\"", "id.user == 1234", "id.group == null",
            "id.namespace = \"sp*\"", "id.specific =~ \"-1$\"",
            "music.year + 1 == 2006", "music.year - 5 * 2 == 1995", "music.year % 100 == 5", "music.year / 2 == 1002",
            "music.rating * 2 == 9", "2 * 7 % 4 == 6", "(1 + 2) * 3 == 9", "\"a\" + \"b\" == \"ab\"",
            "now() == 1700000000", "now() - 3600 < 1700000000",
            "music.title.lowercase() == \"cold play\"", "music.title.uppercase() == \"COLD PLAY\"",
            "music.negative.abs() == 7", "music.title.hash() == \"Cold Play\".hash()",
            "music.tags.uppercase() == \"POP\"", "-1.5.abs() == 1.5",
            "music.year > 2000 and music.title", "music.year < 2000 or music.title", "not music.year < 2000",
            "not music.year < 2000 and music.year > 2000 or false", "(true) == true", "music == true",
            "music.raw == music.raw"})
    void evaluate_matchingSelection_isTrue(String selection) {
        assertEquals(Result.TRUE, eval(selection), selection);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "false", "book", "music.missing", "music.title == \"cold play\"", "music.title = \"Cold\"",
            "music.title =~ \"^Play\"", "music.year == 2004", "music.year != 2005", "music.year > 2005",
            "music.tags == \"jazz\"", "music.counts == 100", "music.counts{nope} == 100", "music.tags[5] == \"rock\"",
            "music.title == null", "null != null", "music.missing != null", "id.user == 1", "id.group == \"g\"",
            "id.namespace == \"other\"", "book.title == \"Cold Play\"", "book.title != \"Cold Play\"",
            "book.title == null", "book.title.lowercase() == \"cold play\"",
            "music.year > 2000 and music.missing", "not music.title", "not true", "music.embedding == null"})
    void evaluate_nonMatchingSelection_isFalse(String selection) {
        assertEquals(Result.FALSE, eval(selection), selection);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "music.missing > 3", "music.missing < 3", "null > 1", "music.missing = \"a*\"", "music.missing =~ \"a\"",
            "music.title > 3", "music.artist == \"x\"", "music.embedding == 1", "music.embedding > 1",
            "music.year / 0 == 1", "music.year % 0 == 1", "music.title + 1 == 2", "music.missing + 1 == 2",
            "music.title.abs() == 1", "music.missing.lowercase() == \"x\"", "$x == 1", "music.raw == \"x\"",
            "music.title =~ music.year + \"(\"", "id.bucket > 5", "music.year =~ \"20\"", "music.title =~ 2004",
            "id.user =~ \"1\"",
            "music.missing > 3 and true", "music.missing > 3 or false", "not music.missing > 3"})
    void evaluate_undefinedOperation_isInvalid(String selection) {
        assertEquals(Result.INVALID, eval(selection), selection);
    }

    @Test
    void evaluate_handlerComposedSelection() {
        assertEquals(Result.TRUE,
                     eval("(music.year > 2000) and (music) and (id.namespace=='space') and (id.user==1234)"));
        assertEquals(Result.FALSE, eval("(true) and (music) and (id.namespace=='other')"));
    }

    @Test
    void hash_isLittleEndianMd5Prefix() {
        // MD5("a") = 0cc175b9c0f1b6a8...: the first eight bytes read little-endian.
        assertEquals(Result.TRUE, eval("\"a\".hash() == 0xa8b6f1c0b975c10c"));
    }

    @Test
    void and_falseDominatesInvalid() {
        assertEquals(Result.FALSE, eval("music.missing > 3 and false"));
        assertEquals(Result.FALSE, eval("false and music.missing > 3"));
    }

    @Test
    void or_trueDominatesInvalid() {
        assertEquals(Result.TRUE, eval("music.missing > 3 or true"));
        assertEquals(Result.TRUE, eval("true or music.missing > 3"));
    }

    @Test
    void matches_invalid_isNoMatch() {
        assertFalse(DocumentSelection.parse("music.missing > 3").matches(MUSIC, CLOCK));
    }

    @Test
    void removedDocument_idAndTypeAreKnown() {
        SelectionContext removed = SelectionContext.removed(DocumentId.of("id:space:music::gone"));
        assertEquals(Result.TRUE, eval("music and id.namespace == \"space\"", removed));
    }

    @Test
    void removedDocument_fieldIsInvalid() {
        SelectionContext removed = SelectionContext.removed(DocumentId.of("id:space:music::gone"));
        assertEquals(Result.INVALID, eval("music.title == \"x\"", removed));
        assertEquals(Result.INVALID, eval("music.title", removed));
    }

    @Test
    void removedDocumentOfOtherType_fieldIsFalse() {
        SelectionContext removed = SelectionContext.removed(DocumentId.of("id:space:book::gone"));
        assertEquals(Result.FALSE, eval("music.title == \"x\"", removed));
    }

    @Test
    void inheritedType_matchesParentType() {
        SelectionContext child = new SelectionContext() {
            @Override public DocumentId id() { return DocumentId.of("id:ns:livemusic::1"); }
            @Override public boolean isOfType(String type) { return type.equals("livemusic") || type.equals("music"); }
            @Override public boolean hasFields() { return true; }
            @Override public Object fieldValue(String name) { return name.equals("year") ? 1999L : null; }
        };
        assertEquals(Result.TRUE, eval("music and music.year == 1999", child));
    }

    @Test
    void idGroup_matchesGroupModifier() {
        SelectionContext grouped = SelectionContext.of(DocumentId.of("id:ns:music:g=it's:x"), Map.of());
        assertEquals(Result.TRUE, eval("id.group == 'it\\'s' and id.user == null", grouped));
    }

    @Test
    void idBucket_matchesContainingBucket() {
        SelectionContext doc = SelectionContext.of(DocumentId.of("id:ns:mytype::1"), Map.of());
        assertEquals(Result.TRUE, eval("id.bucket == 0x20000000000000c4", doc));
        assertEquals(Result.FALSE, eval("id.bucket == 0x20000000000000c5", doc));
    }

    @Test
    void idBucket_valueNoBucketCanHave_containsNothing() {
        SelectionContext doc = SelectionContext.of(DocumentId.of("id:ns:mytype::1"), Map.of());
        assertEquals(Result.FALSE, eval("id.bucket == 0xfc00000000000000", doc));
        assertEquals(Result.FALSE, eval("id.bucket == -1", doc));
        assertEquals(Result.TRUE, eval("id.bucket != -1", doc));
    }

    @Test
    void now_followsInjectedClock() {
        DocumentSelection selection = DocumentSelection.parse("now() > 1700000000");
        assertFalse(selection.matches(MUSIC, CLOCK));
        assertTrue(selection.matches(MUSIC, Clock.offset(CLOCK, java.time.Duration.ofSeconds(1))));
    }

    @Test
    void stringOrdering_isByCodePoint() {
        SelectionContext doc = SelectionContext.of(DocumentId.of("id:ns:t::1"), Map.of("s", "\uffff"));
        assertEquals(Result.TRUE, eval("t.s < \"\ud83d\ude00\"", doc));
    }

    @Test
    void regex_patternsThatBacktrackInJava_areDecidedInLinearTime() {
        SelectionContext doc = SelectionContext.of(DocumentId.of("id:ns:t::1"), Map.of("s", "a".repeat(30) + "!"));
        assertEquals(Result.FALSE, eval("t.s =~ \"(.*a){12}!x\"", doc));
        assertEquals(Result.TRUE, eval("t.s =~ \"(.*a){12}!\"", doc));
        SelectionContext longValue = SelectionContext.of(DocumentId.of("id:ns:t::1"),
                                                         Map.of("s", "a".repeat(200_000) + "!"));
        assertEquals(Result.FALSE, eval("t.s =~ \"(a+)+$\"", longValue)); // exponential for a backtracking engine
        assertEquals(Result.TRUE, eval("t.s =~ \"^(a|aa)+!$\"", longValue));
    }

    @Test
    void regex_isRe2_endAnchorIsEndOfText() {
        SelectionContext doc = SelectionContext.of(DocumentId.of("id:ns:t::1"), Map.of("s", "line\n"));
        assertEquals(Result.FALSE, eval("t.s =~ \"line$\"", doc));
        assertEquals(Result.TRUE, eval("t.s =~ \"(?m)line$\"", doc));
    }

    @Test
    void regex_computedPatternThatIsNotRe2_isInvalid() {
        SelectionContext doc = SelectionContext.of(DocumentId.of("id:ns:t::1"), Map.of("s", "ab", "p", "a(?=b)"));
        assertEquals(Result.INVALID, eval("t.s =~ t.p", doc));
    }

    @Test
    void glob_isAnchoredAndLiteralOtherwise() {
        SelectionContext doc = SelectionContext.of(DocumentId.of("id:ns:t::1"), Map.of("s", "a.b"));
        assertEquals(Result.TRUE, eval("t.s = \"a.b\"", doc));
        assertEquals(Result.FALSE, eval("t.s = \"a?\"", doc));
        assertEquals(Result.FALSE, eval("t.s = \"a.c\"", doc));
        assertEquals(Result.TRUE, eval("t.s = \"*\"", doc));
    }

    @Test
    void validate_knownNames_passes() {
        DocumentSelection.parse("music and music.title == 'x'").validate(schema());
    }

    @Test
    void validate_unknownType_namesPosition() {
        SelectionParseException e = assertThrows(SelectionParseException.class,
                                                  () -> DocumentSelection.parse("music or book").validate(schema()));
        assertEquals(9, e.position());
        assertEquals("a known document type", e.expected());
    }

    @Test
    void validate_unknownField_namesField() {
        SelectionParseException e = assertThrows(SelectionParseException.class,
                                                  () -> DocumentSelection.parse("true and music.nope > 1").validate(schema()));
        assertEquals(9, e.position());
        assertEquals("a field of document type 'music'", e.expected());
    }

    @Test
    void variables_bindOneKeyOrIndexThroughoutTheSelection() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("m", Map.of("x", new SelectionContext.Struct(Map.of("a", 1L, "b", 3L)),
                               "y", new SelectionContext.Struct(Map.of("a", 2L, "b", 2L))));
        fields.put("first", List.of(1L, 2L, 3L));
        fields.put("second", List.of(5L, 6L, 7L));
        SelectionContext doc = SelectionContext.of(DocumentId.of("id:ns:t::1"), fields);
        assertEquals(Result.FALSE, eval("t.m{$k}.a == 1 and t.m{$k}.b == 2", doc)); // no entry has both
        assertEquals(Result.TRUE, eval("t.m{$k}.a == 2 and t.m{$k}.b == 2", doc));
        assertEquals(Result.TRUE, eval("t.m{$k}.a == 1 and t.m{$j}.b == 2", doc)); // two variables bind independently
        assertEquals(Result.FALSE, eval("t.first[$i] == 1 and t.second[$i] == 6", doc));
        assertEquals(Result.TRUE, eval("t.first[$i] == 2 and t.second[$i] == 6", doc));
        assertEquals(Result.TRUE, eval("t.first[$i] == 3 and $i == 2", doc)); // a bound variable is a value too
        assertEquals(Result.TRUE, eval("t.m{$k}.b == 3 and $k == \"x\"", doc));
        assertEquals(Result.FALSE, eval("t.m{$k}.b == 3 and $k == \"y\"", doc));
        assertEquals(Result.TRUE, eval("not t.first[$i] == 1", doc)); // some element is not 1
        assertEquals(Result.FALSE, eval("t.first[$i] == 9", doc));
        assertEquals(Result.FALSE, eval("t.missing[$i] == 9", doc)); // nothing to bind: the path reaches nothing
    }

    @Test
    void variables_overTooManyAssignments_areInvalid() {
        List<Long> many = new java.util.ArrayList<>();
        for (long i = 0; i < 200; i++) many.add(i);
        SelectionContext doc = SelectionContext.of(DocumentId.of("id:ns:t::1"), Map.of("a", many, "b", many));
        assertEquals(Result.TRUE, eval("t.a[$i] == 199 and t.b[$i] == 199", doc));
        assertEquals(Result.INVALID, eval("t.a[$i] == 199 and t.b[$j] == 199", doc)); // 40,000 assignments
    }

    @Test
    void complement_isTrueWhereTheSelectionIsFalseOrInvalid() {
        DocumentSelection kept = DocumentSelection.parse("music.year > 2000 and id.user == 1234");
        assertEquals(Result.TRUE, kept.evaluate(MUSIC, CLOCK));
        assertEquals(Result.FALSE, kept.complement().evaluate(MUSIC, CLOCK));
        SelectionContext noYear = SelectionContext.of(DocumentId.of("id:space:music:n=1234:song-2"), Map.of("title", "x"));
        assertEquals(Result.INVALID, kept.evaluate(noYear, CLOCK));
        assertEquals(Result.TRUE, kept.complement().evaluate(noYear, CLOCK));
        SelectionContext otherUser = SelectionContext.of(DocumentId.of("id:space:music:n=7:song-3"), Map.of("year", 2005L));
        assertEquals(Result.TRUE, kept.complement().evaluate(otherUser, CLOCK));
        assertTrue(kept.complement().bucketConstraint().buckets().isEmpty(), "a complement is in every bucket");
        assertEquals(Result.TRUE, kept.complement().complement().evaluate(MUSIC, CLOCK));
        assertEquals("anything but (music.year > 2000 and id.user == 1234)", kept.complement().toString());
    }

    @Test
    void validate_importedField_whereReferencesAreNotFollowed_saysSo() {
        SelectionParseException e = assertThrows(SelectionParseException.class,
                                                  () -> DocumentSelection.parse("music.artist_name == 'x'").validate(schema()));
        assertEquals("a field of document type 'music' (Sluice does not follow references in selections)", e.expected());
    }

    private static final DocumentTypes FAMILY = SchemaParser.parse(Map.of(
            "base.sd", "schema base { document base { field title type string {} } }",
            "label.sd", "schema label { document label { field name type string {} field tags type array<string> {} } }",
            "artist.sd", "schema artist { document artist { field name type string {} field label type reference<label> {}"
                         + " field country type string {} } import field label.name as label_name {}\n"
                         + " import field label.tags as label_tags {} }",
            "song.sd", "schema song { document song inherits base { field by type reference<artist> {} field year type int {} }\n"
                       + "  import field by.name as artist_name {}\n"
                       + "  import field by.label_name as label_name {}\n"
                       + "  import field by.label_tags as label_tags {}\n"
                       + "  import field year.name as broken {}\n"
                       + "  import field by.nothing as missing {}\n}"));

    @Test
    void validate_againstDocumentTypes_knowsInheritedFieldsAndImports() {
        SelectionSchema schema = SelectionSchema.of(FAMILY);
        DocumentSelection.parse("song.title == 'x' and base.title and artist.name and song.by").validate(schema);
        assertThrows(SelectionParseException.class, () -> DocumentSelection.parse("base.by").validate(schema));
        DocumentSelection.parse("song.artist_name == 'x' and song.label_name and artist.label_name").validate(schema);
        assertEquals("a field of document type 'song' ('import field label.tags as label_tags' in 'artist' imports a field"
                     + " of type array<string>; only fields of primitive types can be used in selections, as in Vespa)",
                     refusal(schema, "song.label_tags"));
        assertEquals("a field of document type 'song' ('import field year.name as broken' in 'song': 'year' is not a"
                     + " reference field of 'song')", refusal(schema, "song.broken == 1"));
        assertEquals("a field of document type 'song' ('import field by.nothing as missing' in 'song': 'artist' has no"
                     + " field 'nothing')", refusal(schema, "song.missing"));
        assertTrue(refusal(schema, "song.artist_name{1} == 'x'").contains("a single value"));
        assertEquals("a field of document type 'song' (no parents here)",
                     refusal(SelectionSchema.withoutImports(schema, "no parents here"), "song.artist_name"));
    }

    private static String refusal(SelectionSchema schema, String selection) {
        return assertThrows(SelectionParseException.class, () -> DocumentSelection.parse(selection).validate(schema))
                .expected();
    }

    @Test
    void importedFields_areReadThroughReferences_andNullWhereAParentIsMissing() {
        Document label = Document.builder(FAMILY.get("label"), DocumentId.of("id:ns:label::l"))
                                 .set("name", new StringValue("Parlophone")).build();
        Document artist = Document.builder(FAMILY.get("artist"), DocumentId.of("id:ns:artist::a"))
                                  .set("name", new StringValue("Coldplay"))
                                  .set("label", new ReferenceValue(label.id())).build();
        Document song = Document.builder(FAMILY.get("song"), DocumentId.of("id:ns:song::s"))
                                .set("by", new ReferenceValue(artist.id())).set("year", new IntValue(2000)).build();
        Document orphan = Document.builder(FAMILY.get("song"), DocumentId.of("id:ns:song::o"))
                                  .set("by", new ReferenceValue(DocumentId.of("id:ns:artist::gone"))).build();
        Map<DocumentId, Document> stored = Map.of(label.id(), label, artist.id(), artist);
        List<DocumentId> reads = new ArrayList<>();
        ParentDocuments parents = id -> {
            reads.add(id);
            return Optional.ofNullable(stored.get(id));
        };
        DocumentSelection byColdplay = DocumentSelection.parse("song.artist_name == \"Coldplay\" and song.label_name = \"Parlo*\"");
        assertEquals(Result.TRUE, byColdplay.evaluate(DocumentSelectionContext.of(song, parents), CLOCK));
        assertEquals(List.of(artist.id(), artist.id(), label.id()), reads);
        assertFalse(byColdplay.matches(DocumentSelectionContext.of(orphan, parents), CLOCK));
        assertTrue(DocumentSelection.parse("song.artist_name == null and song.label_name == null")
                                    .matches(DocumentSelectionContext.of(orphan, parents), CLOCK));
        // without parents (as where a write is routed) an imported field is null, as in Vespa
        assertTrue(DocumentSelection.parse("song.artist_name == null").matches(DocumentSelectionContext.of(song), CLOCK));
        // a remembering view reads each parent once
        reads.clear();
        ParentDocuments remembered = parents.remembering(4);
        byColdplay.evaluate(DocumentSelectionContext.of(song, remembered), CLOCK);
        byColdplay.evaluate(DocumentSelectionContext.of(song, remembered), CLOCK);
        assertEquals(List.of(artist.id(), label.id()), reads);
    }

    private static SelectionSchema schema() {
        return new SelectionSchema() {
            @Override public boolean hasDocumentType(String name) { return name.equals("music"); }
            @Override public boolean hasField(String type, String field) { return field.equals("title"); }
            @Override public boolean hasImportedField(String type, String field) { return field.equals("artist_name"); }
        };
    }

}
