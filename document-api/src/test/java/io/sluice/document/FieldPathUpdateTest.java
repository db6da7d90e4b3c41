package io.sluice.document;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sluice.document.UpdateFixture.SHOP;
import static io.sluice.document.UpdateFixture.doc;
import static io.sluice.document.UpdateFixture.person;
import static io.sluice.document.UpdateFixture.str;
import static io.sluice.document.UpdateFixture.strings;
import static io.sluice.document.UpdateFixture.update;
import static io.sluice.document.UpdateFixture.weights;
import static io.sluice.document.ValueUpdate.Arithmetic.Operator.INCREMENT;
import static io.sluice.document.ValueUpdate.Arithmetic.Operator.MULTIPLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Field-path updates into structs, maps, arrays and weighted sets, applied to whole documents. */
class FieldPathUpdateTest {

    private static Document apply(String path, FieldPathUpdate.Operation operation, Document current) {
        return update().update(path, operation).build().applyTo(current);
    }

    private static StructValue item(String title, double price) {
        return new StructValue(Map.of("title", str(title), "price", new DoubleValue(price)));
    }

    private static MapValue nested(String outer, String inner, StructValue... items) {
        return new MapValue(Map.of(str(outer), new MapValue(Map.of(str(inner), ArrayValue.of(items)))));
    }

    private static MapValue ages(Object... keyAgePairs) {
        MapValue map = MapValue.EMPTY;
        for (int i = 0; i < keyAgePairs.length; i += 2)
            map = map.with(str((String) keyAgePairs[i]), new IntValue((Integer) keyAgePairs[i + 1]));
        return map;
    }

    @Test
    void structField_assign_setsOnlyThatField() {
        assertEquals(doc("contact", person("b", 30)),
                     apply("contact.name", new FieldPathUpdate.Assign(str("b")), doc("contact", person("a", 30))));
    }

    @Test
    void structField_assignOnMissingStruct_createsIt() {
        assertEquals(doc("contact", new StructValue(Map.of("name", str("b")))),
                     apply("contact.name", new FieldPathUpdate.Assign(str("b")), doc()));
    }

    @Test
    void structField_remove_clearsField() {
        assertEquals(doc("contact", new StructValue(Map.of("age", new IntValue(30)))),
                     apply("contact.name", new FieldPathUpdate.Remove(), doc("contact", person("a", 30))));
    }

    @Test
    void structField_removeLastField_clearsStruct() {
        assertEquals(doc(), apply("contact.name", new FieldPathUpdate.Remove(),
                                  doc("contact", new StructValue(Map.of("name", str("a"))))));
    }

    @Test
    void structField_increment_changesNumber() {
        assertEquals(doc("contact", person("a", 31)),
                     apply("contact.age", new FieldPathUpdate.Arithmetic(INCREMENT, 1), doc("contact", person("a", 30))));
    }

    @Test
    void mapKey_assign_addsEntry() {
        assertEquals(doc("m", ages("a", 1, "b", 2)),
                     apply("m{b}", new FieldPathUpdate.Assign(new IntValue(2)), doc("m", ages("a", 1))));
    }

    @Test
    void mapKey_assign_replacesValue() {
        assertEquals(doc("m", ages("a", 5)), apply("m{a}", new FieldPathUpdate.Assign(new IntValue(5)), doc("m", ages("a", 1))));
    }

    @Test
    void quotedMapKeyWithSpace_assign_addsEntry() {
        assertEquals(doc("m", ages("k with space", 3)),
                     apply("m{\"k with space\"}", new FieldPathUpdate.Assign(new IntValue(3)), doc()));
    }

    @Test
    void quotedMapKeyWithEscapes_assign_usesUnescapedKey() {
        assertEquals(doc("m", ages("a}\"b", 3)),
                     apply("m{\"a}\\\"b\"}", new FieldPathUpdate.Assign(new IntValue(3)), doc()));
    }

    @Test
    void mapKey_remove_removesEntry() {
        assertEquals(doc("m", ages("b", 2)), apply("m{a}", new FieldPathUpdate.Remove(), doc("m", ages("a", 1, "b", 2))));
    }

    @Test
    void mapKey_increment_changesValue() {
        assertEquals(doc("m", ages("a", 10)),
                     apply("m{a}", new FieldPathUpdate.Arithmetic(MULTIPLY, 10), doc("m", ages("a", 1))));
    }

    @Test
    void mapKey_incrementMissingKey_isIgnored() {
        assertEquals(doc("m", ages("a", 1)),
                     apply("m{b}", new FieldPathUpdate.Arithmetic(INCREMENT, 1), doc("m", ages("a", 1))));
    }

    @Test
    void mapOfStruct_assignField_createsEntry() {
        assertEquals(doc("people", new MapValue(Map.of(str("p1"), new StructValue(Map.of("age", new IntValue(4)))))),
                     apply("people{p1}.age", new FieldPathUpdate.Assign(new IntValue(4)), doc()));
    }

    @Test
    void arrayIndex_assignStructField_changesThatElement() {
        assertEquals(doc("staff", ArrayValue.of(person("a", 1), person("B", 2))),
                     apply("staff[1].name", new FieldPathUpdate.Assign(str("B")),
                           doc("staff", ArrayValue.of(person("a", 1), person("b", 2)))));
    }

    @Test
    void arrayIndex_assign_replacesElement() {
        assertEquals(doc("tags", strings("a", "X")),
                     apply("tags[1]", new FieldPathUpdate.Assign(str("X")), doc("tags", strings("a", "b"))));
    }

    @Test
    void arrayIndexOutOfRange_isIgnored() {
        assertEquals(doc("tags", strings("a")),
                     apply("tags[5]", new FieldPathUpdate.Assign(str("X")), doc("tags", strings("a"))));
    }

    @Test
    void arrayIndex_remove_removesElement() {
        assertEquals(doc("tags", strings("a", "c")),
                     apply("tags[1]", new FieldPathUpdate.Remove(), doc("tags", strings("a", "b", "c"))));
    }

    @Test
    void weightedSetKey_assign_setsWeight() {
        assertEquals(doc("ws", weights("a", 1, "b", 9)),
                     apply("ws{b}", new FieldPathUpdate.Assign(new IntValue(9)), doc("ws", weights("a", 1))));
    }

    @Test
    void weightedSetKey_increment_changesWeight() {
        assertEquals(doc("ws", weights("a", 3)),
                     apply("ws{a}", new FieldPathUpdate.Arithmetic(INCREMENT, 2), doc("ws", weights("a", 1))));
    }

    @Test
    void weightedSetKey_remove_removesKey() {
        assertEquals(doc("ws", weights("b", 2)), apply("ws{a}", new FieldPathUpdate.Remove(), doc("ws", weights("a", 1, "b", 2))));
    }

    @Test
    void intWeightedSetKey_isParsedAsInt() {
        WeightedSetValue expected = WeightedSetValue.EMPTY.with(new IntValue(123), 5);
        assertEquals(doc("wsi", expected), apply("wsi{123}", new FieldPathUpdate.Assign(new IntValue(5)), doc()));
    }

    @Test
    void nestedPath_assign_changesDeepValue() {
        assertEquals(doc("nested", nested("k1", "k2", item("a", 1), item("B", 2))),
                     apply("nested{k1}{k2}[1].title", new FieldPathUpdate.Assign(str("B")),
                           doc("nested", nested("k1", "k2", item("a", 1), item("b", 2)))));
    }

    @Test
    void nestedPath_add_appendsToArray() {
        assertEquals(doc("nested", nested("k1", "k2", item("a", 1), item("c", 3))),
                     apply("nested{k1}{k2}", new FieldPathUpdate.Add(ArrayValue.of(item("c", 3))),
                           doc("nested", nested("k1", "k2", item("a", 1)))));
    }

    @Test
    void nestedPath_addOnMissingPath_createsIt() {
        assertEquals(doc("nested", nested("k1", "k2", item("c", 3))),
                     apply("nested{k1}{k2}", new FieldPathUpdate.Add(ArrayValue.of(item("c", 3))), doc()));
    }

    @Test
    void nestedPath_removeOnMissingPath_leavesDocument() {
        Document before = doc("nested", nested("k1", "k2", item("a", 1)));
        assertEquals(before, apply("nested{x}{k2}[0]", new FieldPathUpdate.Remove(), before));
    }

    @Test
    void parse_typesKeysAndSteps() {
        FieldPath path = FieldPath.parse(SHOP, "nested{k1}{\"k 2\"}[4].title");
        assertEquals(List.of(new FieldPath.Key(str("k1")), new FieldPath.Key(str("k 2")), new FieldPath.Index(4),
                             new FieldPath.StructField("title")), path.steps());
        assertEquals(PrimitiveType.STRING, path.resultType());
        assertEquals("nested", path.field().name());
    }

    @Test
    void parse_unknownStructField_isRejectedNamingIt() {
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class, () -> FieldPath.parse(SHOP, "contact.nope"));
        assertEquals("Invalid field path 'contact.nope': no field named 'nope' in struct 'person'", e.getMessage());
    }

    @Test
    void parse_indexOnMap_isRejected() {
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class, () -> FieldPath.parse(SHOP, "m[0]"));
        assertEquals("Invalid field path 'm[0]': '[0]' steps into map<string,int>, which is not an array", e.getMessage());
    }

    @Test
    void parse_unclosedKey_isRejected() {
        assertThrows(InvalidUpdateException.class, () -> FieldPath.parse(SHOP, "m{abc"));
    }

    @Test
    void parse_nonNumericIndex_isRejected() {
        assertThrows(InvalidUpdateException.class, () -> FieldPath.parse(SHOP, "tags[x]"));
    }

    @Test
    void parse_badIntKey_isRejected() {
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class, () -> FieldPath.parse(SHOP, "wsi{abc}"));
        assertEquals("Invalid field path 'wsi{abc}': key 'abc' is not a valid int", e.getMessage());
    }

    @Test
    void parse_variable_isRejected() {
        assertThrows(InvalidUpdateException.class, () -> FieldPath.parse(SHOP, "m{$x}"));
    }

    @Test
    void parse_unknownTopLevelField_isRejected() {
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class, () -> FieldPath.parse(SHOP, "nope.x"));
        assertEquals("No field named 'nope' in document type 'shop'", e.getMessage());
    }

    @Test
    void assign_wrongTypeAtPath_isRejected() {
        assertThrows(InvalidUpdateException.class, () -> update().update("contact.age", new FieldPathUpdate.Assign(str("x"))));
    }

    @Test
    void add_onNonArrayPath_isRejected() {
        assertThrows(InvalidUpdateException.class,
                     () -> update().update("m{a}", new FieldPathUpdate.Add(ArrayValue.of(new IntValue(1)))));
    }

    @Test
    void arithmetic_onStringPath_isRejected() {
        assertThrows(InvalidUpdateException.class,
                     () -> update().update("contact.name", new FieldPathUpdate.Arithmetic(INCREMENT, 1)));
    }
}
