package io.sluice.document.schema;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.sluice.document.ArrayType;
import io.sluice.document.DataType;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.Field;
import io.sluice.document.MapType;
import io.sluice.document.PrimitiveType;
import io.sluice.document.ReferenceType;
import io.sluice.document.StructType;
import io.sluice.document.TensorType;
import io.sluice.document.WeightedSetType;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SchemaParserTest {

    private static DocumentTypes types;

    @BeforeAll
    static void parseTestSchemas() throws URISyntaxException {
        Path directory = Path.of(SchemaParserTest.class.getResource("/schemas").toURI());
        types = SchemaParser.parseDirectory(directory);
    }

    private static DataType typeOf(String field) {
        return types.get("music").field(field).orElseThrow().type();
    }

    @Test
    void parseDirectory_findsAllDocumentTypes() {
        assertEquals(List.of("artist", "base", "music"),
                     types.all().stream().map(DocumentType::name).sorted().collect(Collectors.toList()));
    }

    @Test
    void inheritedFieldsComeFirst() {
        List<String> names = types.get("music").fields().stream().map(Field::name).collect(Collectors.toList());
        assertEquals("title", names.get(0));
        assertEquals("artist", names.get(1));
        assertTrue(types.get("music").isA("base"));
    }

    @Test
    void primitiveTypes() {
        assertEquals(PrimitiveType.STRING, typeOf("artist"));
        assertEquals(PrimitiveType.INT, typeOf("year"));
        assertEquals(PrimitiveType.LONG, typeOf("duration"));
        assertEquals(PrimitiveType.BYTE, typeOf("rating"));
        assertEquals(PrimitiveType.BOOL, typeOf("live"));
        assertEquals(PrimitiveType.FLOAT, typeOf("score"));
        assertEquals(PrimitiveType.DOUBLE, typeOf("popularity"));
        assertEquals(PrimitiveType.POSITION, typeOf("location"));
        assertEquals(PrimitiveType.RAW, typeOf("blob"));
        assertEquals(PrimitiveType.URI, typeOf("homepage"));
        assertEquals(PrimitiveType.PREDICATE, typeOf("audience"));
    }

    @Test
    void collectionTypes() {
        assertEquals(new ArrayType(PrimitiveType.STRING), typeOf("tags"));
        assertEquals(new WeightedSetType(PrimitiveType.STRING, true, true), typeOf("labels"));
        assertEquals(new MapType(PrimitiveType.STRING, PrimitiveType.INT), typeOf("counts"));
        assertEquals("map<string,array<contact>>", typeOf("nested").typeName());
    }

    @Test
    void structInheritsFieldsOfInheritedStruct() {
        StructType contact = (StructType) typeOf("owner");
        assertEquals(List.of("first", "last", "email", "phones"),
                     contact.fields().stream().map(Field::name).collect(Collectors.toList()));
    }

    @Test
    void tensorTypes() {
        assertEquals(TensorType.parse("tensor<float>(x[4])"), typeOf("embedding"));
        assertEquals(TensorType.parse("tensor(key{})"), typeOf("keywords"));
        assertEquals(TensorType.parse("tensor<bfloat16>(word{},x[2])"), typeOf("mixed"));
        assertEquals(TensorType.parse("tensor<int8>(x[2],y[2])"), typeOf("tiny"));
    }

    @Test
    void statementsNotModelled_areCountedInOneWarningPerFile() {
        String schema = "schema a {\n"
                        + "  document a {\n"
                        + "    field title type string {\n"
                        + "      indexing: summary | index\n"
                        + "      match: text\n"
                        + "    }\n"
                        + "    field tags type weightedset<string> {\n"
                        + "      indexing: attribute\n"
                        + "      weightedset: create-if-nonexistent\n"
                        + "    }\n"
                        + "  }\n"
                        + "  field title_lower type string { indexing: input title | lowercase | attribute }\n"
                        + "  import field parent_ref.name as parent_name {}\n"
                        + "  rank-profile default { first-phase { expression: nativeRank } }\n"
                        + "  rank-profile other { }\n"
                        + "}\n";
        List<String> warnings = new java.util.ArrayList<>();
        DocumentTypes types = SchemaParser.parse(Map.of("schemas/a.sd", schema), warnings::add);
        assertTrue(types.contains("a"));
        assertEquals(java.util.Set.of("parent_name"), types.get("a").importedFields());
        assertEquals(new io.sluice.document.ImportedField("parent_name", "parent_ref", "name"),
                     types.get("a").importedField("parent_name").orElseThrow());
        assertEquals(List.of("schemas/a.sd: skipped, as Sluice runs no indexing, ranking or summaries and stores and "
                             + "returns documents as fed: field (outside the document), import field, indexing x2, "
                             + "match, rank-profile x2; imported fields are not stored: selections and conditions read them from the "
                             + "parent document"), warnings);
        List<String> none = new java.util.ArrayList<>();
        SchemaParser.parse(Map.of("b.sd", "schema b { document b { field f type int {} } }"), none::add);
        assertEquals(List.of(), none);
    }

    @Test
    void fieldOutsideDocument_withMappedTensorType_isSkippedAsOneStatement() {
        String schema = "schema a {\n"
                        + "  document a { field text type string { indexing: summary } }\n"
                        + "  field embedding type tensor<bfloat16>(token{}, x[4]) {\n"
                        + "    indexing: input text | embed | attribute\n"
                        + "  }\n"
                        + "  fieldset default { fields: text }\n"
                        + "}\n";
        List<String> warnings = new java.util.ArrayList<>();
        DocumentTypes types = SchemaParser.parse(Map.of("schemas/a.sd", schema), warnings::add);
        assertTrue(types.contains("a"));
        assertEquals(List.of("schemas/a.sd: skipped, as Sluice runs no indexing, ranking or summaries and stores and "
                             + "returns documents as fed: field (outside the document), indexing"), warnings);
    }

    @Test
    void referenceType() {
        assertEquals(new ReferenceType("artist"), typeOf("by"));
    }

    @Test
    void fieldsOutsideDocumentAreNotDocumentFields() {
        assertTrue(types.get("music").field("artist_lower").isEmpty());
    }

    @Test
    void fieldSetsKeepOnlyDocumentFields() {
        assertEquals(List.of("title", "artist"), types.get("music").fieldSets().get("default"));
        assertEquals(List.of("artist"), types.get("music").fieldSets().get("names"));
    }

    @Test
    void documentNameDefaultsToSchemaName() {
        DocumentTypes parsed = SchemaParser.parse("a.sd", "schema a { document { field f type int {} } }");
        assertEquals(PrimitiveType.INT, parsed.get("a").field("f").orElseThrow().type());
    }

    @Test
    void fieldWithoutBody() {
        DocumentTypes parsed = SchemaParser.parse("a.sd", "search a {\n document a {\n  field f type string\n  field g type int\n }\n}\n");
        assertEquals(2, parsed.get("a").fields().size());
    }

    @Test
    void byteOrderMarkAndCrLf_areAccepted() {
        DocumentTypes parsed = SchemaParser.parse("a.sd", "\uFEFFschema a {\r\n  document a {\r\n    field f type int {}\r\n  }\r\n}\r\n");
        assertTrue(parsed.get("a").field("f").isPresent());
    }

    @Test
    void columnsCountFromLineStartAfterByteOrderMark() {
        SchemaParseException e = parseFailure("\uFEFFschem a { }");
        assertEquals("a.sd:1:1: Expected 'schema', got 'schem'", e.getMessage());
    }

    @Test
    void referencesAcrossFilesResolveInAnyOrder() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("child.sd", "schema child { document child { field p type reference<parent> {} } }");
        files.put("parent.sd", "schema parent { document parent inherits grand { } }");
        files.put("grand.sd", "schema grand { document grand { field g type string {} } }");
        DocumentTypes parsed = SchemaParser.parse(files);
        assertTrue(parsed.get("parent").field("g").isPresent());
    }

    @Test
    void unknownType_namesFileLineAndColumn() {
        SchemaParseException e = parseFailure("schema a {\n  document a {\n    field f type strin {}\n  }\n}\n");
        assertEquals("a.sd:3:18: Unknown type 'strin'", e.getMessage());
        assertEquals(3, e.line());
        assertEquals(18, e.column());
        assertEquals("a.sd", e.file());
    }

    @Test
    void missingType_namesPosition() {
        SchemaParseException e = parseFailure("schema a {\n  document a {\n    field f string\n  }\n}\n");
        assertEquals("a.sd:3:13: Expected 'type' after field 'f', got 'string'", e.getMessage());
    }

    @Test
    void unbalancedBraces_namesOpeningBrace() {
        SchemaParseException e = parseFailure("schema a {\n  document a {}\n  rank-profile r {\n    first-phase {\n}\n");
        assertEquals(3, e.line());
        assertEquals(18, e.column());
    }

    @Test
    void unterminatedString_namesStart() {
        SchemaParseException e = parseFailure("schema a {\n document a {}\n rank-profile r { expression: \"x }\n}\n");
        assertEquals("a.sd:3:31: Unterminated string", e.getMessage());
    }

    @Test
    void badTensorType_isParseError() {
        SchemaParseException e = parseFailure("schema a { document a { field t type tensor<int4>(x[2]) {} } }");
        assertEquals(1, e.line());
        assertEquals(38, e.column());
        assertTrue(e.getMessage().contains("int4"), e.getMessage());
    }

    @Test
    void duplicateField_isParseError() {
        SchemaParseException e = parseFailure("schema a { document a {\nfield f type int {}\nfield f type long {} } }");
        assertEquals(3, e.line());
        assertEquals(7, e.column());
    }

    @Test
    void unknownReferenceTarget_isParseError() {
        SchemaParseException e = parseFailure("schema a { document a { field r type reference<b> {} } }");
        assertTrue(e.getMessage().contains("'b'"), e.getMessage());
    }

    @Test
    void inheritanceCycle_isParseError() {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("a.sd", "schema a { document a inherits b { } }");
        files.put("b.sd", "schema b { document b inherits a { } }");
        assertThrows(SchemaParseException.class, () -> SchemaParser.parse(files));
    }

    @Test
    void recursiveStruct_isParseError() {
        assertThrows(SchemaParseException.class, () -> SchemaParser.parse(
                "a.sd", "schema a { document a { struct s { field t type array<s> {} } field f type s {} } }"));
    }

    @Test
    void weightedSetOfStruct_isParseError() {
        assertThrows(SchemaParseException.class, () -> SchemaParser.parse(
                "a.sd", "schema a { document a { struct s { } field f type weightedset<s> {} } }"));
    }

    @Test
    void noDocument_isParseError() {
        SchemaParseException e = parseFailure("schema a { rank-profile r { } }");
        assertTrue(e.getMessage().contains("has no document"), e.getMessage());
    }

    @Test
    void trailingText_isParseError() {
        SchemaParseException e = parseFailure("schema a { document a { } }\nextra");
        assertEquals("a.sd:2:1: Expected end of file, got 'extra'", e.getMessage());
    }

    @Test
    void fieldSetWithUnknownField_isParseError() {
        SchemaParseException e = parseFailure("schema a { document a { }\n fieldset s { fields: nope } }");
        assertEquals(2, e.line());
        assertEquals(23, e.column());
    }

    @Test
    void documentNamedOtherThanSchema_isRefused() {
        SchemaParseException e = parseFailure("schema a {\n  document b {\n  }\n}\n");
        assertEquals("a.sd:2:12: Schema 'a' has document 'b': a schema's document must have the schema's name "
                     + "(Vespa requires it)", e.getMessage());
    }

    @Test
    void schemaInheritance_keepsTheParentsFieldSets() {
        DocumentTypes parsed = SchemaParser.parse(Map.of(
                "base.sd", "schema base {\n document base {\n  field title type string {}\n }\n"
                           + " fieldset default { fields: title }\n fieldset titles { fields: title }\n}\n",
                "child.sd", "schema child inherits base {\n document child inherits base {\n  field body type string {}\n }\n"
                            + " fieldset default { fields: title, body }\n}\n"));
        assertEquals(Map.of("default", List.of("title", "body"), "titles", List.of("title")),
                     parsed.get("child").fieldSets());
    }

    @Test
    void schemaInheritanceWithoutDocumentInheritance_isRefused() {
        SchemaParseException e = assertThrows(SchemaParseException.class, () -> SchemaParser.parse(Map.of(
                "base.sd", "schema base {\n document base {\n }\n}\n",
                "child.sd", "schema child inherits base {\n document child {\n }\n}\n")));
        assertEquals("child.sd:1:23: Schema 'child' inherits schema 'base', so its document must inherit document 'base'",
                     e.getMessage());
    }

    @Test
    void fileWithOnlyADocument_isADocumentType() {
        DocumentTypes parsed = SchemaParser.parse(Map.of(
                "common.sd", "document common {\n  field id type string {}\n}\n",
                "music.sd", "schema music {\n document music inherits common {\n  field title type string {}\n }\n}\n"));
        assertEquals(List.of("id", "title"),
                     parsed.get("music").fields().stream().map(Field::name).collect(Collectors.toList()));
    }

    @Test
    void float16Field_holdsHalfPrecisionFloats() {
        DocumentTypes parsed = SchemaParser.parse("a.sd", "schema a {\n document a {\n  field f type float16 {}\n }\n}\n");
        assertEquals(PrimitiveType.FLOAT16, parsed.get("a").field("f").orElseThrow().type());
    }

    private static SchemaParseException parseFailure(String text) {
        return assertThrows(SchemaParseException.class, () -> SchemaParser.parse("a.sd", text));
    }
}
