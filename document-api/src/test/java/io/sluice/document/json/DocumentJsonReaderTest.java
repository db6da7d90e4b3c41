package io.sluice.document.json;

import static io.sluice.document.json.TestTypes.ID;
import static io.sluice.document.json.TestTypes.TYPES;
import static io.sluice.document.json.TestTypes.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.document.DocumentException;
import io.sluice.document.DocumentId;
import io.sluice.document.IntValue;
import io.sluice.document.PredicateValue;
import io.sluice.document.StringValue;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DocumentJsonReaderTest {

    private static final DocumentJsonReader STRICT = DocumentJsonReader.strict(TYPES);
    private static final DocumentJsonReader LENIENT = DocumentJsonReader.lenient(TYPES);

    private static ParsedPut put(String body) {
        return STRICT.readPut(ID, utf8(body));
    }

    private static String failure(String body) {
        return assertThrows(DocumentJsonException.class, () -> put(body)).getMessage();
    }

    @Test
    void readPut_conditionAndCreate_areReturned() {
        ParsedPut put = put("{\"condition\":\"all.i==1\",\"create\":true,\"fields\":{\"i\":1}}");
        assertEquals(Optional.of("all.i==1"), put.condition());
        assertEquals(Optional.of(true), put.create());
        assertEquals(Map.of("i", new IntValue(1)), put.document().fields());
    }

    @Test
    void readPut_nullCondition_isAbsent() {
        assertEquals(Optional.empty(), put("{\"fields\":{},\"condition\":null}").condition());
    }

    @Test
    void readPut_otherTopLevelKeys_areSkipped() {
        ParsedPut put = put("{\"put\":\"id:x:y::z\",\"id\":1,\"other\":{\"deep\":[1,{\"a\":[]}]},\"fields\":{\"s\":\"a\"}}");
        assertEquals(Map.of("s", new StringValue("a")), put.document().fields());
    }

    @Test
    void readPut_idComesFromArgument() {
        assertEquals(ID, put("{\"fields\":{}}").document().id());
    }

    @Test
    void readPut_nullAndEmptyValues_areNotSet() {
        ParsedPut put = put("{\"fields\":{\"s\":\"\",\"i\":null,\"arr\":[],\"ws\":{},\"m\":{},\"p\":{},\"ref\":\"\","
                            + "\"mi\":[],\"people\":[]}}");
        assertEquals(Map.of(), put.document().fields());
    }

    @Test
    void scalarsForStringField_useTheirText() {
        assertEquals(new StringValue("42"), put("{\"fields\":{\"s\":42}}").document().value("s").orElseThrow());
    }

    @Test
    void rootNotObject_fails() {
        assertEquals("expected start of root object, got START_ARRAY", failure("[]"));
    }

    @Test
    void emptyBody_fails() {
        assertEquals("expected start of root object, got null", failure(""));
    }

    @Test
    void missingFields_fails() {
        assertEquals("document is missing the required \"fields\" field", failure("{\"condition\":\"true\"}"));
    }

    @Test
    void createNotBoolean_fails() {
        assertEquals("failed parsing document: Current token (VALUE_STRING) not of boolean type",
                     failure("{\"fields\":{},\"create\":\"true\"}"));
    }

    @Test
    void conditionNotString_fails() {
        assertEquals("expected string value for condition, got VALUE_NUMBER_INT",
                     failure("{\"fields\":{},\"condition\":1}"));
    }

    @Test
    void trailingTokens_fail() {
        assertEquals("expected end of input, got START_OBJECT", failure("{\"fields\":{}} {}"));
    }

    @Test
    void malformedJson_failsWithParsePrefix() {
        String message = failure("{\"fields\":{\"s\":}}");
        assertTrue(message.startsWith("failed parsing document: Unexpected character ('}'"), message);
    }

    @Test
    void truncatedJson_failsWithParsePrefix() {
        assertTrue(failure("{\"fields\":{\"s\":\"a\"").startsWith("failed parsing document: "));
    }

    @Test
    void unknownField_strict_failsNamingField() {
        UnknownFieldException e = assertThrows(UnknownFieldException.class,
                                               () -> put("{\"fields\":{\"s\":\"a\",\"nope\":1}}"));
        assertEquals("nope", e.fieldName());
        assertTrue(e.getMessage().startsWith("No field 'nope' in the structure of type 'all', which has the fields: [s, i, l,"),
                   e.getMessage());
    }

    @Test
    void unknownStructField_strict_failsInsideFieldContext() {
        UnknownFieldException e = assertThrows(UnknownFieldException.class,
                                               () -> put("{\"fields\":{\"p\":{\"nope\":1}}}"));
        assertEquals("In document 'id:ns:all::1': Could not parse field 'p' of type person: "
                     + "No field 'nope' in the structure of type 'person', which has the fields: [name, age]",
                     e.getMessage());
    }

    @Test
    void unknownFields_lenient_areSkippedAndReported() {
        ParsedPut put = LENIENT.readPut(ID, utf8("{\"fields\":{\"nope\":{\"x\":[1]},\"i\":3,\"p\":{\"extra\":1,\"age\":2}}}"));
        assertEquals(List.of("nope", "p.extra"), put.ignoredFields());
        assertTrue(put.hasIgnoredFields());
        assertEquals(new IntValue(3), put.document().value("i").orElseThrow());
    }

    @Test
    void lenient_withoutUnknownFields_reportsNone() {
        assertFalse(LENIENT.readPut(ID, utf8("{\"fields\":{\"i\":3}}")).hasIgnoredFields());
    }

    @Test
    void fractionForInt_failsNamingFieldAndValue() {
        assertEquals("In document 'id:ns:all::1': Could not parse field 'i' of type int: "
                     + "Expected a value of type int, got '4.2'",
                     failure("{\"fields\":{\"i\":4.2}}"));
    }

    @Test
    void predicate_isReadInCanonicalForm() {
        assertEquals(Map.of("pred", new PredicateValue("gender in [Female, Male] and not (age in [..20])")),
                     put("{\"fields\":{\"pred\":\"(gender IN [Male,Female]) AND age not in [..20]\"}}")
                             .document().fields());
    }

    @Test
    void invalidPredicate_failsNamingFieldValueAndProblem() {
        assertEquals("In document 'id:ns:all::1': Could not parse field 'pred' of type predicate: "
                     + "Invalid predicate 'gender = Female': Expected 'in' or 'not in' at column 8, got '='",
                     failure("{\"fields\":{\"pred\":\"gender = Female\"}}"));
        assertTrue(failure("{\"fields\":{\"pred\":\"\"}}")
                           .endsWith("Invalid predicate '': Expected a feature key, 'true', 'false', 'not (' or '(' "
                                     + "at column 1, got end of input"));
        assertTrue(assertThrows(DocumentJsonException.class,
                                () -> LENIENT.readPut(ID, utf8("{\"fields\":{\"pred\":\"a in\"}}")))
                           .getMessage().endsWith("Invalid predicate 'a in': Expected '[' at column 5, got end of input"));
    }

    @Test
    void storedReader_keepsPredicatesThatDoNotParse_andCanonicalizesTheOthers() {
        DocumentJsonReader stored = DocumentJsonReader.stored(TYPES);
        assertEquals(Map.of("pred", new PredicateValue("gender = Female")),
                     stored.readFields(ID, utf8("{\"pred\":\"gender = Female\"}")).document().fields());
        assertEquals(Map.of("pred", new PredicateValue("a in [b, c]")),
                     stored.readFields(ID, utf8("{\"pred\":\"a IN [c,b]\"}")).document().fields());
        assertEquals(Map.of("i", new IntValue(1)),
                     stored.readFields(ID, utf8("{\"i\":1,\"gone\":2}")).document().fields());
        assertThrows(DocumentJsonException.class, () -> stored.readFields(ID, utf8("{\"i\":\"x\"}")));
    }

    @Test
    void intOutOfRange_fails() {
        assertTrue(failure("{\"fields\":{\"i\":2147483648}}").endsWith("got '2147483648'"));
        assertTrue(failure("{\"fields\":{\"b\":128}}").endsWith("got '128'"));
    }

    @Test
    void objectForString_fails() {
        assertTrue(failure("{\"fields\":{\"s\":{}}}").endsWith("Expected a value of type string, got START_OBJECT"));
    }

    @Test
    void nullArrayElement_fails() {
        assertTrue(failure("{\"fields\":{\"arr\":[\"a\",null]}}").endsWith(": Illegal null value for array entry"));
    }

    @Test
    void badBool_fails() {
        assertTrue(failure("{\"fields\":{\"flag\":\"yes\"}}").endsWith("Expected a value of type bool, got 'yes'"));
    }

    @Test
    void badBase64_fails() {
        assertTrue(failure("{\"fields\":{\"raw\":\"***\"}}").contains("'***'"));
    }

    @Test
    void referenceToOtherType_fails() {
        assertTrue(failure("{\"fields\":{\"ref\":\"id:ns:all::x\"}}").contains("is not of type 'other'"));
    }

    @Test
    void badPositionText_fails() {
        assertTrue(failure("{\"fields\":{\"pos\":\"X1;Y2\"}}").contains("'X1;Y2'"));
    }

    @Test
    void denseTensorWithWrongCount_fails() {
        assertTrue(failure("{\"fields\":{\"dense\":[1,2]}}").endsWith("Expected 3 cell values for tensor type tensor<float>(x[3]), got 2"));
    }

    @Test
    void tensorLabelOutOfRange_fails() {
        assertTrue(failure("{\"fields\":{\"dense\":[{\"address\":{\"x\":\"3\"},\"value\":1}]}}").contains("'3'"));
    }

    @Test
    void badHex_fails() {
        assertTrue(failure("{\"fields\":{\"i8\":\"FFZZ\"}}").contains("'Z'"));
    }

    @Test
    void unknownDocumentType_fails() {
        DocumentException e = assertThrows(DocumentException.class,
                                           () -> STRICT.readPut(DocumentId.of("id:ns:nope::1"), utf8("{\"fields\":{}}")));
        assertEquals("Document type nope does not exist", e.getMessage());
    }

    @Test
    void fieldsNotObject_fails() {
        assertEquals("expected start of object for \"fields\", got START_ARRAY", failure("{\"fields\":[]}"));
    }
}
