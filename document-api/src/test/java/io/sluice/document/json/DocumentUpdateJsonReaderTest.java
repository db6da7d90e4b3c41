package io.sluice.document.json;

import io.sluice.document.ArrayValue;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldPathUpdate;
import io.sluice.document.IntValue;
import io.sluice.document.MapValue;
import io.sluice.document.PredicateValue;
import io.sluice.document.StringValue;
import io.sluice.document.StructValue;
import io.sluice.document.TensorAddUpdate;
import io.sluice.document.TensorModifyUpdate;
import io.sluice.document.TensorRemoveUpdate;
import io.sluice.document.TensorType;
import io.sluice.document.TensorValue;
import io.sluice.document.ValueUpdate;
import io.sluice.document.schema.SchemaParser;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sluice.document.ValueUpdate.Arithmetic.Operator.DECREMENT;
import static io.sluice.document.ValueUpdate.Arithmetic.Operator.DIVIDE;
import static io.sluice.document.ValueUpdate.Arithmetic.Operator.INCREMENT;
import static io.sluice.document.ValueUpdate.Arithmetic.Operator.MULTIPLY;
import static io.sluice.document.json.TestTypes.ID;
import static io.sluice.document.json.TestTypes.TYPES;
import static io.sluice.document.json.TestTypes.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Update bodies read into updates, compared with updates built directly; and the exact error texts. */
class DocumentUpdateJsonReaderTest {

    private static final DocumentType ALL = TYPES.get("all");
    private static final DocumentUpdateJsonReader STRICT = DocumentUpdateJsonReader.strict(TYPES);
    private static final DocumentUpdateJsonReader LENIENT = DocumentUpdateJsonReader.lenient(TYPES);

    /** Reads {@code {"fields": <fields>}} strictly; single quotes in the text stand for double quotes. */
    private static DocumentUpdate read(String fields) {
        return STRICT.readUpdate(ID, utf8("{\"fields\":" + fields.replace('\'', '"') + "}")).update();
    }

    private static String error(String body) {
        return assertThrows(DocumentJsonException.class, () -> STRICT.readUpdate(ID, utf8(body.replace('\'', '"'))))
                .getMessage();
    }

    private static DocumentUpdate.Builder expected() {
        return DocumentUpdate.builder(ALL, ID);
    }

    private static StringValue str(String value) {
        return new StringValue(value);
    }

    @Test
    void assign_string() {
        assertEquals(expected().update("s", new ValueUpdate.Assign(str("x"))).build(), read("{'s':{'assign':'x'}}"));
    }

    @Test
    void assign_predicate_isReadInCanonicalForm() {
        assertEquals(expected().update("pred", new ValueUpdate.Assign(new PredicateValue("a not in [x, y]"))).build(),
                     read("{'pred':{'assign':'a NOT IN [y,x]'}}"));
    }

    @Test
    void assign_invalidPredicate_failsNamingFieldAndProblem() {
        assertEquals("Error in 'pred': Invalid predicate 'a in [x': Expected ',' or ']' at column 8, got end of input",
                     error("{'fields':{'pred':{'assign':'a in [x'}}}"));
    }

    @Test
    void assign_null_clearsField() {
        assertEquals(expected().update("s", new ValueUpdate.Clear()).build(), read("{'s':{'assign':null}}"));
    }

    @Test
    void assign_numberFromStringText() {
        assertEquals(expected().update("i", new ValueUpdate.Assign(new IntValue(42))).build(), read("{'i':{'assign':'42'}}"));
    }

    @Test
    void assign_struct() {
        StructValue person = new StructValue(Map.of("name", str("n"), "age", new IntValue(3)));
        assertEquals(expected().update("p", new ValueUpdate.Assign(person)).build(),
                     read("{'p':{'assign':{'name':'n','age':3}}}"));
    }

    @Test
    void assign_denseTensor() {
        TensorValue tensor = TensorValue.dense(TensorType.parse("tensor<float>(x[3])"), 1, 2, 3);
        assertEquals(expected().update("dense", new ValueUpdate.Assign(tensor)).build(),
                     read("{'dense':{'assign':{'values':[1,2,3]}}}"));
    }

    @Test
    void assign_wrongValueType_namesFieldAndValue() {
        assertEquals("Error in 'i': Expected a value of type int, got 'abc'", error("{'fields':{'i':{'assign':'abc'}}}"));
    }

    @Test
    void add_array_appendsElements() {
        assertEquals(expected().update("arr", new ValueUpdate.AddElements(List.of(str("a"), str("b")))).build(),
                     read("{'arr':{'add':['a','b']}}"));
    }

    @Test
    void add_weightedSet_addsKeysWithWeights() {
        assertEquals(expected().update("ws", new ValueUpdate.AddWeighted(Map.of(str("a"), 3))).build(),
                     read("{'ws':{'add':{'a':3}}}"));
    }

    @Test
    void add_sparseTensorCells() {
        TensorValue cells = TensorValue.builder(TensorType.parse("tensor(key{})")).cell(List.of("a"), 2).build();
        assertEquals(expected().update("sparse", new TensorAddUpdate(cells)).build(),
                     read("{'sparse':{'add':{'cells':[{'address':{'key':'a'},'value':2.0}]}}}"));
    }

    @Test
    void add_mixedTensorBlocks() {
        TensorValue cells = TensorValue.builder(TensorType.parse("tensor(a{},x[2])")).block(List.of("p"), new double[] {1, 2}).build();
        assertEquals(expected().update("mixed", new TensorAddUpdate(cells)).build(),
                     read("{'mixed':{'add':{'blocks':{'p':[1,2]}}}}"));
    }

    @Test
    void add_toScalar_isRejected() {
        assertEquals("Error in 's': Cannot add to a field of type string; add needs an array, weighted set or tensor",
                     error("{'fields':{'s':{'add':['x']}}}"));
    }

    @Test
    void remove_array_removesValues() {
        assertEquals(expected().update("arr", new ValueUpdate.RemoveValues(List.of(str("a")))).build(),
                     read("{'arr':{'remove':['a']}}"));
    }

    @Test
    void remove_weightedSet_takesKeysOfObject() {
        assertEquals(expected().update("ws", new ValueUpdate.RemoveValues(List.of(str("a"), str("b")))).build(),
                     read("{'ws':{'remove':{'a':0,'b':0}}}"));
    }

    @Test
    void remove_weightedSet_takesArrayOfKeys() {
        assertEquals(expected().update("wsi", new ValueUpdate.RemoveValues(List.of(new IntValue(7)))).build(),
                     read("{'wsi':{'remove':[7]}}"));
    }

    @Test
    void remove_tensorAddresses() {
        assertEquals(expected().update("sparse2", new TensorRemoveUpdate(List.of(Map.of("a", "x"), Map.of("a", "y", "b", "z"))))
                             .build(),
                     read("{'sparse2':{'remove':{'addresses':[{'a':'x'},{'a':'y','b':'z'}]}}}"));
    }

    @Test
    void remove_map_isRejectedPointingToFieldPath() {
        assertEquals("Error in 'm': Cannot remove from a map field directly; use the field path 'field{key}' with remove",
                     error("{'fields':{'m':{'remove':{'k':0}}}}"));
    }

    @Test
    void arithmetic_allFourOperators() {
        assertEquals(expected().update("i", new ValueUpdate.Arithmetic(INCREMENT, 1))
                               .update("l", new ValueUpdate.Arithmetic(DECREMENT, 2))
                               .update("d", new ValueUpdate.Arithmetic(MULTIPLY, 2.5))
                               .update("f", new ValueUpdate.Arithmetic(DIVIDE, 4)).build(),
                     read("{'i':{'increment':1},'l':{'decrement':2},'d':{'multiply':2.5},'f':{'divide':'4'}}"));
    }

    @Test
    void arithmetic_nonNumericOperand_isRejected() {
        assertEquals("Error in 'i': Expected a number for increment, got 'abc'", error("{'fields':{'i':{'increment':'abc'}}}"));
    }

    @Test
    void arithmetic_operandBeyondDoubleRange_isRejected() {
        assertEquals("Error in 'i': Operand 1e400 of increment is out of range: arithmetic needs a finite number",
                     error("{'fields':{'i':{'increment':1e400}}}"));
    }

    @Test
    void arithmetic_divisionByZero_isRejected() {
        assertEquals("Error in 'i': Division by zero: cannot divide by 0.0", error("{'fields':{'i':{'divide':0.0}}}"));
    }

    @Test
    void fieldPathArithmetic_divisionByZero_isRejected() {
        assertEquals("Error in 'm{a}': Division by zero: cannot divide by 0", error("{'fields':{'m{a}':{'divide':0}}}"));
    }

    @Test
    void arithmetic_onString_isRejected() {
        assertEquals("Error in 's': Cannot increment a field of type string; arithmetic needs a numeric field",
                     error("{'fields':{'s':{'increment':1}}}"));
    }

    @Test
    void match_arrayIndex() {
        assertEquals(expected().update("ints", new ValueUpdate.Match(new IntValue(1), new ValueUpdate.Arithmetic(INCREMENT, 5))).build(),
                     read("{'ints':{'match':{'element':1,'increment':5}}}"));
    }

    @Test
    void match_weightedSetKey() {
        assertEquals(expected().update("ws", new ValueUpdate.Match(str("a"), new ValueUpdate.Assign(new IntValue(9)))).build(),
                     read("{'ws':{'match':{'element':'a','assign':9}}}"));
    }

    @Test
    void match_mapKey_withOperationBeforeElement() {
        assertEquals(expected().update("m", new ValueUpdate.Match(str("k"), new ValueUpdate.Arithmetic(MULTIPLY, 2))).build(),
                     read("{'m':{'match':{'multiply':2,'element':'k'}}}"));
    }

    @Test
    void match_withoutElement_isRejected() {
        assertEquals("Error in 'ints': Match has no \"element\"", error("{'fields':{'ints':{'match':{'increment':1}}}}"));
    }

    @Test
    void match_twoOperations_isRejected() {
        assertEquals("Error in 'ints': Match takes one operation, got another: 'decrement'",
                     error("{'fields':{'ints':{'match':{'element':0,'increment':1,'decrement':1}}}}"));
    }

    @Test
    void modify_replaceSparseCells() {
        TensorModifyUpdate modify = new TensorModifyUpdate(TensorModifyUpdate.Operation.REPLACE,
                List.of(new TensorModifyUpdate.Cell(Map.of("key", "a"), 5)), false);
        assertEquals(expected().update("sparse", modify).build(),
                     read("{'sparse':{'modify':{'operation':'replace','cells':[{'address':{'key':'a'},'value':5}]}}}"));
    }

    @Test
    void modify_addDenseCellWithCreate_keepsOnlyGivenCells() {
        TensorModifyUpdate modify = new TensorModifyUpdate(TensorModifyUpdate.Operation.ADD,
                List.of(new TensorModifyUpdate.Cell(Map.of("x", "1"), 2)), true);
        assertEquals(expected().update("dense", modify).build(),
                     read("{'dense':{'modify':{'operation':'add','create':true,'cells':[{'address':{'x':'1'},'value':2}]}}}"));
    }

    @Test
    void modify_mixedBlocks_giveWholeSubspaces() {
        TensorModifyUpdate modify = new TensorModifyUpdate(TensorModifyUpdate.Operation.MULTIPLY,
                List.of(new TensorModifyUpdate.Cell(Map.of("a", "p", "x", "0"), 2),
                        new TensorModifyUpdate.Cell(Map.of("a", "p", "x", "1"), 3)), false);
        assertEquals(expected().update("mixed", modify).build(),
                     read("{'mixed':{'modify':{'operation':'multiply','blocks':{'p':[2,3]}}}}"));
    }

    @Test
    void modify_blockList_givesWholeSubspaces() {
        TensorModifyUpdate modify = new TensorModifyUpdate(TensorModifyUpdate.Operation.REPLACE,
                List.of(new TensorModifyUpdate.Cell(Map.of("a", "p", "b", "q", "x", "0"), 4),
                        new TensorModifyUpdate.Cell(Map.of("a", "p", "b", "q", "x", "1"), 5)), true);
        assertEquals(expected().update("mixed2", modify).build(),
                     read("{'mixed2':{'modify':{'operation':'replace','create':true,"
                          + "'blocks':[{'address':{'a':'p','b':'q'},'values':[4,5]}]}}}"));
    }

    @Test
    void modify_blockListWithPartialAddress_isRejected() {
        assertEquals("Error in 'mixed2': Block address {a=p} must name exactly the mapped dimensions of "
                     + "tensor(a{},b{},x[2])",
                     error("{'fields':{'mixed2':{'modify':{'operation':'add','blocks':[{'address':{'a':'p'},'values':[1,2]}]}}}}"));
    }

    @Test
    void modify_unknownOperation_isRejected() {
        assertEquals("Error in 'sparse': Unknown operation 'subtract' in modify update; expected replace, add or multiply",
                     error("{'fields':{'sparse':{'modify':{'operation':'subtract','cells':[]}}}}"));
    }

    @Test
    void modify_withoutOperation_isRejected() {
        assertEquals("Error in 'sparse': Modify update has no \"operation\"",
                     error("{'fields':{'sparse':{'modify':{'cells':[]}}}}"));
    }

    @Test
    void fieldPath_structField() {
        assertEquals(expected().update("p.name", new FieldPathUpdate.Assign(str("n"))).build(),
                     read("{'p.name':{'assign':'n'}}"));
    }

    @Test
    void fieldPath_mapKeys_plainAndQuoted() {
        assertEquals(expected().update("m{k}", new FieldPathUpdate.Assign(new IntValue(1)))
                               .update("m{\"k with space\"}", new FieldPathUpdate.Assign(new IntValue(2))).build(),
                     read("{'m{k}':{'assign':1},'m{\\'k with space\\'}':{'assign':2}}"));
    }

    @Test
    void fieldPath_intMapKeyIntoStruct() {
        assertEquals(expected().update("mi{1}.age", new FieldPathUpdate.Arithmetic(INCREMENT, 1)).build(),
                     read("{'mi{1}.age':{'increment':1}}"));
    }

    @Test
    void fieldPath_arrayIndexAndWeightedSetKey() {
        assertEquals(expected().update("arr[1]", new FieldPathUpdate.Assign(str("x")))
                               .update("ws{a}", new FieldPathUpdate.Arithmetic(DIVIDE, 2)).build(),
                     read("{'arr[1]':{'assign':'x'},'ws{a}':{'divide':2}}"));
    }

    @Test
    void fieldPath_removeTakesAnyScalarArgument() {
        assertEquals(expected().update("m{k}", new FieldPathUpdate.Remove()).build(), read("{'m{k}':{'remove':0}}"));
    }

    @Test
    void fieldPath_operationNamesAreCaseInsensitive() {
        assertEquals(expected().update("people[0].name", new FieldPathUpdate.Assign(str("n"))).build(),
                     read("{'people[0].name':{'ASSIGN':'n'}}"));
    }

    @Test
    void fieldPath_addAppendsToArrayInMap() {
        DocumentTypes types = SchemaParser.parse("cart.sd",
                "schema cart { document cart { field lists type map<string, array<string>> {} } }");
        DocumentId id = DocumentId.of("id:ns:cart::1");
        DocumentUpdate read = DocumentUpdateJsonReader.strict(types)
                .readUpdate(id, utf8("{\"fields\":{\"lists{k}\":{\"add\":[\"a\",\"b\"]}}}")).update();
        assertEquals(DocumentUpdate.builder(types.get("cart"), id)
                                   .update("lists{k}", new FieldPathUpdate.Add(ArrayValue.of(str("a"), str("b")))).build(),
                     read);
    }

    @Test
    void fieldPath_unknownOperation_isRejected() {
        assertEquals("Error in 'p.name': Field path update type 'frob' not supported.",
                     error("{'fields':{'p.name':{'frob':1}}}"));
    }

    @Test
    void fieldPath_addOnNonArray_isRejected() {
        assertEquals("Error in 'p.age': Cannot add to a value of type int; field path add needs an array",
                     error("{'fields':{'p.age':{'add':[1]}}}"));
    }

    @Test
    void fieldPath_malformed_isRejected() {
        assertEquals("Error in 'm{k': Invalid field path 'm{k': the key opened at position 1 is not closed with '}'",
                     error("{'fields':{'m{k':{'assign':1}}}"));
    }

    @Test
    void severalOperationsOnOneField_keepOrder() {
        assertEquals(expected().update("arr", new ValueUpdate.AddElements(List.of(str("c"))))
                               .update("arr", new ValueUpdate.RemoveValues(List.of(str("a")))).build(),
                     read("{'arr':{'add':['c'],'remove':['a']}}"));
    }

    @Test
    void unknownField_strict_isRejectedWithVespaText() {
        UnknownFieldException e = assertThrows(UnknownFieldException.class,
                () -> STRICT.readUpdate(ID, utf8("{\"fields\":{\"nope\":{\"assign\":1}}}")));
        assertEquals("Error in 'nope': No field named 'nope' in document type 'all'", e.getMessage());
        assertEquals("nope", e.fieldName());
    }

    @Test
    void unknownField_lenient_isSkippedAndReported() {
        ParsedUpdate parsed = LENIENT.readUpdate(ID, utf8("{\"fields\":{\"nope\":{\"assign\":{\"a\":[1]}},"
                                                          + "\"s\":{\"assign\":\"x\"},\"gone.x\":{\"assign\":1}}}"));
        assertEquals(expected().update("s", new ValueUpdate.Assign(str("x"))).build(), parsed.update());
        assertEquals(List.of("nope", "gone.x"), parsed.ignoredFields());
        assertTrue(parsed.hasIgnoredFields());
    }

    @Test
    void unknownStructField_lenient_isReportedWithPath() {
        ParsedUpdate parsed = LENIENT.readUpdate(ID, utf8("{\"fields\":{\"p\":{\"assign\":{\"name\":\"n\",\"nope\":1}}}}"));
        assertEquals(expected().update("p", new ValueUpdate.Assign(new StructValue(Map.of("name", str("n"))))).build(),
                     parsed.update());
        assertEquals(List.of("p.nope"), parsed.ignoredFields());
    }

    @Test
    void unknownStructField_strict_isRejected() {
        assertThrows(UnknownFieldException.class,
                     () -> STRICT.readUpdate(ID, utf8("{\"fields\":{\"p\":{\"assign\":{\"nope\":1}}}}")));
    }

    @Test
    void conditionAndCreate_areReturnedAndCreateSetsTheFlag() {
        ParsedUpdate parsed = STRICT.readUpdate(ID, utf8("{\"update\":\"id:ns:all::1\",\"condition\":\"all.i==1\","
                                                         + "\"create\":true,\"fields\":{}}"));
        assertEquals("all.i==1", parsed.condition().orElseThrow());
        assertEquals(true, parsed.create().orElseThrow());
        assertTrue(parsed.update().createIfNonExistent());
        assertTrue(parsed.update().isEmpty());
        assertFalse(parsed.hasIgnoredFields());
    }

    @Test
    void withoutCreate_flagIsFalseAndAbsent() {
        ParsedUpdate parsed = STRICT.readUpdate(ID, utf8("{\"fields\":{\"s\":{\"assign\":\"x\"}}}"));
        assertTrue(parsed.create().isEmpty());
        assertTrue(parsed.condition().isEmpty());
        assertFalse(parsed.update().createIfNonExistent());
    }

    @Test
    void createNotBoolean_isRejected() {
        assertEquals("failed parsing document: Current token (VALUE_STRING) not of boolean type",
                     error("{'create':'yes','fields':{}}"));
    }

    @Test
    void missingFields_isRejected() {
        assertEquals("document is missing the required \"fields\" field", error("{'condition':'true'}"));
    }

    @Test
    void rootNotObject_isRejected() {
        assertEquals("expected start of root object, got START_ARRAY", error("[]"));
        assertEquals("expected start of root object, got null", error(""));
    }

    @Test
    void trailingTokens_areRejected() {
        assertEquals("expected end of input, got START_OBJECT", error("{'fields':{}} {}"));
    }

    @Test
    void syntaxError_isPrefixed() {
        assertTrue(error("{'fields':{'s':{'assign':}}}").startsWith("failed parsing document: Unexpected character"));
    }

    @Test
    void bytesInvalidInTheDetectedEncoding_areAParseError() {
        byte[] json = utf8("{\"fields\":{}}");
        byte[] body = new byte[80 + json.length]; // leading zero bytes make Jackson detect UTF-32
        System.arraycopy(json, 0, body, 80, json.length);
        DocumentJsonException e = assertThrows(DocumentJsonException.class, () -> STRICT.readUpdate(ID, body));
        assertTrue(e.getMessage().startsWith("failed parsing document: Invalid UTF-32 character"), e.getMessage());
    }

    @Test
    void operationsNotAnObject_isRejected() {
        assertEquals("Error in 's': Expected an object of update operations, got 'x'", error("{'fields':{'s':'x'}}"));
    }

    @Test
    void unknownOperation_isRejected() {
        assertEquals("Error in 's': Unknown update operation 'frob'; expected assign, add, remove, increment, decrement, "
                     + "multiply, divide, match or modify", error("{'fields':{'s':{'frob':1}}}"));
    }

    @Test
    void readUpdate_appliesToDocument() {
        DocumentUpdate update = read("{'arr':{'add':['b']},'i':{'increment':2},'m{k}':{'assign':3}}");
        Document before = Document.builder(ALL, ID)
                .set("arr", ArrayValue.of(str("a"))).set("i", new IntValue(1)).build();
        Document after = Document.builder(ALL, ID)
                .set("arr", ArrayValue.of(str("a"), str("b"))).set("i", new IntValue(3))
                .set("m", new MapValue(Map.of(str("k"), new IntValue(3)))).build();
        assertEquals(after, update.applyTo(before));
    }
}
