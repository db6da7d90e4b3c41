package io.sluice.document;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static io.sluice.document.UpdateFixture.doc;
import static io.sluice.document.UpdateFixture.person;
import static io.sluice.document.UpdateFixture.str;
import static io.sluice.document.UpdateFixture.strings;
import static io.sluice.document.UpdateFixture.update;
import static io.sluice.document.UpdateFixture.weights;
import static io.sluice.document.ValueUpdate.Arithmetic.Operator.DECREMENT;
import static io.sluice.document.ValueUpdate.Arithmetic.Operator.DIVIDE;
import static io.sluice.document.ValueUpdate.Arithmetic.Operator.INCREMENT;
import static io.sluice.document.ValueUpdate.Arithmetic.Operator.MULTIPLY;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Operations on top-level fields: assign, clear, add, remove, arithmetic and match, applied to whole documents. */
class ValueUpdateTest {

    private static Document apply(String field, ValueUpdate operation, Document current) {
        return update().update(field, operation).build().applyTo(current);
    }

    @Test
    void assign_string_replacesValue() {
        assertEquals(doc("title", str("new"), "count", new IntValue(1)),
                     apply("title", new ValueUpdate.Assign(str("new")), doc("title", str("old"), "count", new IntValue(1))));
    }

    @Test
    void assign_missingField_setsIt() {
        assertEquals(doc("count", new IntValue(7)), apply("count", new ValueUpdate.Assign(new IntValue(7)), doc()));
    }

    @Test
    void assign_wholeStruct_replacesIt() {
        assertEquals(doc("contact", person("b", 2)),
                     apply("contact", new ValueUpdate.Assign(person("b", 2)), doc("contact", person("a", 1))));
    }

    @Test
    void assign_emptyString_clearsField() {
        assertEquals(doc(), apply("title", new ValueUpdate.Assign(str("")), doc("title", str("old"))));
    }

    @Test
    void clear_removesField() {
        assertEquals(doc("count", new IntValue(1)),
                     apply("title", new ValueUpdate.Clear(), doc("title", str("old"), "count", new IntValue(1))));
    }

    @Test
    void assign_wrongType_isRejectedNamingFieldAndValue() {
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class,
                () -> update().update("count", new ValueUpdate.Assign(str("seven"))));
        assertEquals("Field 'count': Cannot assign seven to a field of type int", e.getMessage());
    }

    @Test
    void addElements_appendsInOrder() {
        assertEquals(doc("tags", strings("a", "b", "c", "a")),
                     apply("tags", new ValueUpdate.AddElements(List.of(str("c"), str("a"))), doc("tags", strings("a", "b"))));
    }

    @Test
    void addElements_toMissingArray_createsIt() {
        assertEquals(doc("tags", strings("x")), apply("tags", new ValueUpdate.AddElements(List.of(str("x"))), doc()));
    }

    @Test
    void addElements_wrongElementType_isRejected() {
        assertThrows(InvalidUpdateException.class,
                     () -> update().update("ints", new ValueUpdate.AddElements(List.of(str("x")))));
    }

    @Test
    void addWeighted_addsKeysAndOverwritesWeights() {
        assertEquals(doc("ws", weights("a", 5, "b", 2)),
                     apply("ws", new ValueUpdate.AddWeighted(Map.of(str("a"), 5, str("b"), 2)), doc("ws", weights("a", 1))));
    }

    @Test
    void addWeighted_onArray_isRejected() {
        assertThrows(InvalidUpdateException.class,
                     () -> update().update("tags", new ValueUpdate.AddWeighted(Map.of(str("a"), 1))));
    }

    @Test
    void removeValues_fromArray_removesEveryEqualElement() {
        assertEquals(doc("tags", strings("b", "c")),
                     apply("tags", new ValueUpdate.RemoveValues(List.of(str("a"))), doc("tags", strings("a", "b", "a", "c"))));
    }

    @Test
    void removeValues_fromWeightedSet_removesKeys() {
        assertEquals(doc("ws", weights("b", 2)),
                     apply("ws", new ValueUpdate.RemoveValues(List.of(str("a"), str("zz"))), doc("ws", weights("a", 1, "b", 2))));
    }

    @Test
    void removeValues_lastElement_clearsField() {
        assertEquals(doc(), apply("tags", new ValueUpdate.RemoveValues(List.of(str("a"))), doc("tags", strings("a"))));
    }

    @Test
    void removeValues_fromMissingField_leavesItMissing() {
        assertEquals(doc(), apply("tags", new ValueUpdate.RemoveValues(List.of(str("a"))), doc()));
    }

    @Test
    void removeValues_onMap_isRejectedPointingToFieldPath() {
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class,
                () -> update().update("m", new ValueUpdate.RemoveValues(List.of(str("a")))));
        assertEquals("Field 'm': Cannot remove from a map field directly; use the field path 'field{key}' with remove",
                     e.getMessage());
    }

    @Test
    void increment_int_addsOperand() {
        assertEquals(doc("count", new IntValue(13)),
                     apply("count", new ValueUpdate.Arithmetic(INCREMENT, 3), doc("count", new IntValue(10))));
    }

    @Test
    void decrement_long_subtractsOperand() {
        assertEquals(doc("big", new LongValue(-5)),
                     apply("big", new ValueUpdate.Arithmetic(DECREMENT, 15), doc("big", new LongValue(10))));
    }

    @Test
    void multiply_double_multiplies() {
        assertEquals(doc("score", new DoubleValue(3.75)),
                     apply("score", new ValueUpdate.Arithmetic(MULTIPLY, 2.5), doc("score", new DoubleValue(1.5))));
    }

    @Test
    void multiply_float_roundsToFloat() {
        assertEquals(doc("ratio", new FloatValue((float) (0.1f * 3.0))),
                     apply("ratio", new ValueUpdate.Arithmetic(MULTIPLY, 3), doc("ratio", new FloatValue(0.1f))));
    }

    @Test
    void divide_int_truncatesTowardZero() {
        assertEquals(doc("count", new IntValue(-3)),
                     apply("count", new ValueUpdate.Arithmetic(DIVIDE, 2), doc("count", new IntValue(-7))));
    }

    @Test
    void increment_beyondTheType_isRefusedNotWrappedOrSaturated() {
        InvalidDocumentException e = assertThrows(InvalidDocumentException.class,
                () -> apply("small", new ValueUpdate.Arithmetic(INCREMENT, 10), doc("small", new ByteValue((byte) 120))));
        assertEquals("Arithmetic update result 130.0 is out of range for a field of type byte", e.getMessage());
        assertThrows(InvalidDocumentException.class,
                () -> apply("count", new ValueUpdate.Arithmetic(INCREMENT, 1), doc("count", new IntValue(Integer.MAX_VALUE))));
        assertThrows(InvalidDocumentException.class,
                () -> apply("count", new ValueUpdate.Arithmetic(MULTIPLY, -2), doc("count", new IntValue(Integer.MIN_VALUE))));
        assertEquals(doc("count", new IntValue(Integer.MIN_VALUE)),
                     apply("count", new ValueUpdate.Arithmetic(DECREMENT, 1), doc("count", new IntValue(Integer.MIN_VALUE + 1))));
        assertEquals(doc("count", new IntValue(Integer.MAX_VALUE)),
                     apply("count", new ValueUpdate.Arithmetic(INCREMENT, 0.5), doc("count", new IntValue(Integer.MAX_VALUE))));
    }

    @Test
    void increment_missingField_startsAtZero() {
        assertEquals(doc("count", new IntValue(4)), apply("count", new ValueUpdate.Arithmetic(INCREMENT, 4), doc()));
    }

    @Test
    void divide_byZero_isRefused() { // the JSON reader refuses a zero divisor first; this holds for any other caller
        assertThrows(InvalidDocumentException.class,
                () -> apply("count", new ValueUpdate.Arithmetic(DIVIDE, 0), doc("count", new IntValue(5))));
        assertThrows(InvalidDocumentException.class,
                () -> apply("score", new ValueUpdate.Arithmetic(DIVIDE, 0), doc("score", new DoubleValue(-2))));
    }

    @Test
    void increment_string_isRejected() {
        InvalidUpdateException e = assertThrows(InvalidUpdateException.class,
                () -> update().update("title", new ValueUpdate.Arithmetic(INCREMENT, 1)));
        assertEquals("Field 'title': Cannot increment a field of type string; arithmetic needs a numeric field",
                     e.getMessage());
    }

    @Test
    void match_arrayIndex_assignsElement() {
        assertEquals(doc("tags", strings("a", "X", "c")),
                     apply("tags", new ValueUpdate.Match(new IntValue(1), new ValueUpdate.Assign(str("X"))),
                           doc("tags", strings("a", "b", "c"))));
    }

    @Test
    void match_arrayIndex_incrementsElement() {
        assertEquals(doc("ints", ArrayValue.of(new IntValue(1), new IntValue(12))),
                     apply("ints", new ValueUpdate.Match(new IntValue(1), new ValueUpdate.Arithmetic(INCREMENT, 10)),
                           doc("ints", ArrayValue.of(new IntValue(1), new IntValue(2)))));
    }

    @Test
    void match_arrayIndexOutOfRange_isIgnored() {
        assertEquals(doc("tags", strings("a")),
                     apply("tags", new ValueUpdate.Match(new IntValue(3), new ValueUpdate.Assign(str("X"))),
                           doc("tags", strings("a"))));
    }

    @Test
    void match_weightedSetKey_incrementsWeight() {
        assertEquals(doc("ws", weights("a", 1, "b", 7)),
                     apply("ws", new ValueUpdate.Match(str("b"), new ValueUpdate.Arithmetic(INCREMENT, 5)),
                           doc("ws", weights("a", 1, "b", 2))));
    }

    @Test
    void match_weightedSetKey_assignsWeight() {
        assertEquals(doc("ws", weights("a", 40)),
                     apply("ws", new ValueUpdate.Match(str("a"), new ValueUpdate.Assign(new IntValue(40))),
                           doc("ws", weights("a", 1))));
    }

    @Test
    void match_missingWeightedSetKey_isIgnored() {
        assertEquals(doc("ws", weights("a", 1)),
                     apply("ws", new ValueUpdate.Match(str("b"), new ValueUpdate.Arithmetic(INCREMENT, 5)),
                           doc("ws", weights("a", 1))));
    }

    @Test
    void match_missingKey_createIfNonExistent_startsAtZero() {
        assertEquals(doc("counters", weights("a", 1, "b", 5)),
                     apply("counters", new ValueUpdate.Match(str("b"), new ValueUpdate.Arithmetic(INCREMENT, 5)),
                           doc("counters", weights("a", 1))));
    }

    @Test
    void match_createIfNonExistent_onMissingField_createsSet() {
        assertEquals(doc("counters", weights("b", 2)),
                     apply("counters", new ValueUpdate.Match(str("b"), new ValueUpdate.Arithmetic(INCREMENT, 2)), doc()));
    }

    @Test
    void match_removeIfZero_removesKeyAtZero() {
        assertEquals(doc("counters", weights("b", 2)),
                     apply("counters", new ValueUpdate.Match(str("a"), new ValueUpdate.Arithmetic(DECREMENT, 3)),
                           doc("counters", weights("a", 3, "b", 2))));
    }

    @Test
    void match_withoutRemoveIfZero_keepsZeroWeight() {
        assertEquals(doc("ws", weights("a", 0)),
                     apply("ws", new ValueUpdate.Match(str("a"), new ValueUpdate.Arithmetic(DECREMENT, 3)),
                           doc("ws", weights("a", 3))));
    }

    @Test
    void match_mapKey_incrementsValue() {
        MapValue before = new MapValue(Map.of(str("k"), new IntValue(1)));
        assertEquals(doc("m", new MapValue(Map.of(str("k"), new IntValue(3)))),
                     apply("m", new ValueUpdate.Match(str("k"), new ValueUpdate.Arithmetic(INCREMENT, 2)), doc("m", before)));
    }

    @Test
    void match_missingMapKey_assignAddsEntry() {
        assertEquals(doc("m", new MapValue(Map.of(str("k"), new IntValue(9)))),
                     apply("m", new ValueUpdate.Match(str("k"), new ValueUpdate.Assign(new IntValue(9))), doc()));
    }

    @Test
    void match_missingMapKey_arithmeticIsIgnored() {
        MapValue before = new MapValue(Map.of(str("a"), new IntValue(1)));
        assertEquals(doc("m", before),
                     apply("m", new ValueUpdate.Match(str("k"), new ValueUpdate.Arithmetic(INCREMENT, 2)), doc("m", before)));
    }

    @Test
    void match_arrayWithStringKey_isRejected() {
        assertThrows(InvalidUpdateException.class,
                     () -> update().update("tags", new ValueUpdate.Match(str("0"), new ValueUpdate.Assign(str("x")))));
    }

    @Test
    void match_onScalarField_isRejected() {
        assertThrows(InvalidUpdateException.class,
                     () -> update().update("title", new ValueUpdate.Match(new IntValue(0), new ValueUpdate.Clear())));
    }

    @Test
    void match_weightedSetWithAdd_isRejected() {
        assertThrows(InvalidUpdateException.class, () -> update().update("ws",
                new ValueUpdate.Match(str("a"), new ValueUpdate.AddElements(List.of(str("x"))))));
    }

    @Test
    void severalOperationsOnOneField_applyInOrder() {
        DocumentUpdate update = update().update("tags", new ValueUpdate.AddElements(List.of(str("x"), str("y"))))
                                        .update("tags", new ValueUpdate.RemoveValues(List.of(str("a"))))
                                        .update("tags", new ValueUpdate.Match(new IntValue(0), new ValueUpdate.Assign(str("b2"))))
                                        .build();
        assertEquals(1, update.fieldUpdates().size());
        assertEquals(doc("tags", strings("b2", "x", "y")), update.applyTo(doc("tags", strings("a", "b"))));
    }

    @Test
    void severalArithmeticOperations_applyInOrder() {
        DocumentUpdate update = update().update("count", new ValueUpdate.Arithmetic(INCREMENT, 1))
                                        .update("count", new ValueUpdate.Arithmetic(MULTIPLY, 10))
                                        .build();
        assertEquals(doc("count", new IntValue(30)), update.applyTo(doc("count", new IntValue(2))));
    }

    @Test
    void clearThenAdd_startsFromEmpty() {
        DocumentUpdate update = update().update("tags", new ValueUpdate.Clear())
                                        .update("tags", new ValueUpdate.AddElements(List.of(str("z"))))
                                        .build();
        assertEquals(doc("tags", strings("z")), update.applyTo(doc("tags", strings("a", "b"))));
    }
}
