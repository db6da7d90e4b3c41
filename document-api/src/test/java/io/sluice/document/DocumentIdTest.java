package io.sluice.document;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DocumentIdTest {

    private static void assertRejected(String id, String message) {
        IllegalDocumentIdException e = assertThrows(IllegalDocumentIdException.class, () -> DocumentId.of(id));
        assertEquals(message, e.getMessage());
    }

    @Test
    void of_plainId_exposesParts() {
        DocumentId id = DocumentId.of("id:music:song::one/two:three");
        assertEquals("music", id.namespace());
        assertEquals("song", id.documentType());
        assertEquals("one/two:three", id.userSpecific());
        assertEquals(OptionalLong.empty(), id.number());
        assertEquals(Optional.empty(), id.group());
    }

    @Test
    void of_numberModifier_exposesNumber() {
        DocumentId id = DocumentId.of("id:ns:t:n=-42:x");
        assertEquals(OptionalLong.of(-42), id.number());
        assertEquals(-42L, id.location());
    }

    @Test
    void of_groupModifier_exposesGroup() {
        assertEquals(Optional.of("yahoo.com"), DocumentId.of("id:ns:t:g=yahoo.com:x").group());
    }

    @Test
    void of_emptyUserSpecificAndType_areAccepted() {
        DocumentId id = DocumentId.of("id:ns:::");
        assertEquals("", id.documentType());
        assertEquals("", id.userSpecific());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "id:ns:t::a         | id:ns:t::a",
            "id:ns:t:n=007:a    | id:ns:t:n=7:a",
            "id:ns:t:n=+5:a     | id:ns:t:n=5:a",
            "id:ns:t:,n=5,:a    | id:ns:t:n=5:a",
            "id:ns:t:,,:a       | id:ns:t::a",
            "id:ns:t:g=a=b:a    | id:ns:t:g=a=b:a",
    })
    void toString_isCanonical(String input, String canonical) {
        assertEquals(canonical, DocumentId.of(input).toString());
    }

    @Test
    void equals_comparesCanonicalForm() {
        assertEquals(DocumentId.of("id:ns:t:n=01:a"), DocumentId.of("id:ns:t:n=1:a"));
        assertEquals(DocumentId.of("id:ns:t:n=01:a").hashCode(), DocumentId.of("id:ns:t:n=1:a").hashCode());
        assertNotEquals(DocumentId.of("id:ns:t::a"), DocumentId.of("id:ns:t::b"));
    }

    @Test
    void of_tooLong_isRejected() {
        String id = "id:ns:t::" + "x".repeat(DocumentId.MAX_LENGTH);
        assertRejected(id, "Document id length " + id.length() + " is longer than max length of 65536");
    }

    @Test
    void of_maximumLength_isAccepted() {
        String id = "id:ns:t::" + "x".repeat(DocumentId.MAX_LENGTH - 9);
        assertEquals(id, DocumentId.of(id).toString());
    }

    @Test
    void of_controlCharacter_isRejected() {
        assertRejected("id:ns:t::a\u0001", "Unparseable id 'id:ns:t::a\u0001': Contains illegal code point 0x1");
    }

    @Test
    void of_tabNewlineAndDelete_areAccepted() {
        assertEquals("a\t\n\r\u007f", DocumentId.of("id:ns:t::a\t\n\r\u007f").userSpecific());
    }

    @Test
    void of_unpairedSurrogate_isRejected() {
        assertRejected("id:ns:t::\ud800", "Unparseable id 'id:ns:t::\ud800': Contains illegal code point 0xD800");
    }

    @Test
    void of_pairedSurrogate_isAccepted() {
        assertEquals("\ud83d\ude00", DocumentId.of("id:ns:t::\ud83d\ude00").userSpecific());
    }

    @ParameterizedTest
    @CsvSource({"FDD0", "FDDF", "FFFE", "FFFF", "1FFFE", "10FFFE", "10FFFF"})
    void of_nonCharacter_isRejected(String hex) {
        String id = "id:ns:t::" + Character.toString(Integer.parseInt(hex, 16));
        assertRejected(id, "Unparseable id '" + id + "': Contains illegal code point 0x" + hex);
    }

    @ParameterizedTest
    @CsvSource({"FDCF", "FDE0", "FFFD", "1FFFD", "10FFFD"})
    void of_nonCharacterNeighbour_isAccepted(String hex) {
        String id = "id:ns:t::" + Character.toString(Integer.parseInt(hex, 16));
        assertEquals(id, DocumentId.of(id).toString());
    }

    @Test
    void of_noColon_isMissingScheme() {
        assertRejected("foo", "Unparseable id 'foo': Scheme missing");
    }

    @Test
    void of_oneColon_isMissingNamespace() {
        assertRejected("id:ns", "Unparseable id 'id:ns': Namespace missing");
    }

    @Test
    void of_emptyNamespace_isRejected() {
        assertRejected("id::t::a", "Unparseable id 'id::t::a': Namespace must be non-empty");
    }

    @Test
    void of_unknownScheme_isRejected() {
        assertRejected("doc:ns:t::a", "Unknown id scheme 'doc'");
    }

    @Test
    void of_twoColons_isMissingType() {
        assertRejected("id:ns:t", "Unparseable id 'id:ns:t': Document type missing");
    }

    @Test
    void of_threeColons_isMissingKeyValues() {
        assertRejected("id:ns:t:a", "Unparseable id 'id:ns:t:a': Key/value section missing");
    }

    @Test
    void of_longPrefix_isRejected() {
        String id = "id:ns:" + "t".repeat(0xff00) + "::a";
        assertRejected(id, "Document id prior to the namespace specific part, " + (0xff00 + 7)
                           + ", is longer than 65280 id: " + id);
    }

    @Test
    void of_prefixJustBelowLimit_isAccepted() {
        String type = "t".repeat(0xff00 - 8);
        assertEquals(type, DocumentId.of("id:ns:" + type + "::a").documentType());
    }

    @Test
    void of_pairWithoutEquals_isRejected() {
        assertRejected("id:ns:t:n:a", "Illegal key-value pair 'n'");
    }

    @Test
    void of_unknownKey_isRejected() {
        assertRejected("id:ns:t:x=1:a", "Illegal key 'x'");
    }

    @Test
    void of_numberAndGroup_isIllegalCombination() {
        assertRejected("id:ns:t:n=1,g=a:a", "Illegal key combination in n=1,g=a");
    }

    @Test
    void of_twoNumbers_isIllegalCombination() {
        assertRejected("id:ns:t:n=1,n=2:a", "Illegal key combination in n=1,n=2");
    }

    @Test
    void of_emptyNumber_isRejected() {
        assertRejected("id:ns:t:n=:a", "ID location value for 'n=' key is empty");
    }

    @Test
    void of_emptyGroup_isRejected() {
        assertRejected("id:ns:t:g=:a", "ID location value for 'g=' key is empty");
    }

    @Test
    void of_nonNumericNumber_namesTheValue() {
        assertRejected("id:ns:t:n=abc:a", "Illegal value 'abc' for 'n=' key: expected a signed 64-bit decimal number");
    }

    @Test
    void of_numberAboveSignedRange_isRejected() {
        assertRejected("id:ns:t:n=9223372036854775808:a",
                       "Illegal value '9223372036854775808' for 'n=' key: expected a signed 64-bit decimal number");
    }

    @Test
    void exception_isDocumentException() {
        DocumentException e = assertThrows(DocumentException.class, () -> DocumentId.of("nope"));
        assertEquals(IllegalDocumentIdException.class, e.getClass());
    }

    @Test
    void ofParts_sameAsParsingTheText() {
        String long1 = "x".repeat(DocumentId.MAX_LENGTH), longPrefix = "t".repeat(0xff00);
        String[][] parts = { // namespace, type, number, group, user-specific part
                { "ns", "t", null, null, "a:b/c" }, { "ns", "t", "-42", null, "x" }, { "ns", "t", "0", null, "" },
                { "ns", "t", null, "a=b", "x" }, { "n:s", "t", null, null, "x" }, { "ns", "t:u", null, null, "x" },
                { "ns", "t", null, "a,b", "x" }, { "ns", "t", null, "a:b", "x" }, { "", "t", null, null, "x" },
                { "ns", "t", null, "", "x" }, { "ns", "t", null, null, "a\u0001" }, { "n\uFFFE", "t", null, null, "x" },
                { "ns", "t", null, null, long1 }, { "ns", longPrefix, null, null, "x" } };
        for (String[] part : parts) {
            String keyValues = part[3] != null ? "g=" + part[3] : part[2] != null ? "n=" + part[2] : "";
            String text = "id:" + part[0] + ":" + part[1] + ":" + keyValues + ":" + part[4];
            String expected = outcome(() -> DocumentId.of(text));
            String actual = outcome(() -> part[3] != null
                                          ? DocumentId.ofGroup(part[0], part[1], part[3], part[4])
                                          : part[2] != null
                                            ? DocumentId.ofNumber(part[0], part[1], Long.parseLong(part[2]), part[4])
                                            : DocumentId.of(part[0], part[1], part[4]));
            assertEquals(expected, actual, text.length() > 100 ? text.substring(0, 100) : text);
        }
    }

    /** The id with its parts, or the exception's message. */
    private static String outcome(java.util.function.Supplier<DocumentId> id) {
        try {
            DocumentId made = id.get();
            return made + " " + made.namespace() + " " + made.documentType() + " " + made.number() + " " + made.group()
                   + " " + made.userSpecific();
        }
        catch (IllegalDocumentIdException e) {
            return e.getMessage();
        }
    }

    @Test
    void of_nonCanonicalNumber_canonicalised() {
        assertEquals("id:ns:t:n=7:x", DocumentId.of("id:ns:t:n=007:x").toString());
        assertEquals("id:ns:t:g=a:x", DocumentId.of("id:ns:t:,g=a,:x").toString());
        assertEquals(DocumentId.of("id:ns:t:n=7:x"), DocumentId.of("id:ns:t:n=007:x"));
    }

}
