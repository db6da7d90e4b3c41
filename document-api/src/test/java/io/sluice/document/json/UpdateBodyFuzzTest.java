package io.sluice.document.json;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sluice.document.ArrayValue;
import io.sluice.document.Document;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.IntValue;
import io.sluice.document.MapValue;
import io.sluice.document.StringValue;
import io.sluice.document.StructValue;
import io.sluice.document.TensorType;
import io.sluice.document.TensorValue;
import io.sluice.document.UpdateOutOfRangeException;
import io.sluice.document.WeightedSetValue;

import java.util.List;
import java.util.Map;

import static io.sluice.document.json.TestTypes.ID;
import static io.sluice.document.json.TestTypes.TYPES;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Coverage-guided fuzzing of the update-body reader and of applying what it reads. Without {@code JAZZER_FUZZ=1}
 * (every normal build) the target replays its seeds under
 * {@code src/test/resources/io/sluice/document/json/UpdateBodyFuzzTestInputs/updateBody/}; with it, Jazzer mutates
 * them (see {@code fuzz.sh}). Malformed input must end in {@link DocumentJsonException}, and an update that was read
 * must apply to an empty and to a populated document without any exception.
 */
class UpdateBodyFuzzTest {

    private static final DocumentType ALL = TYPES.get("all");
    private static final DocumentUpdateJsonReader STRICT = DocumentUpdateJsonReader.strict(TYPES);
    private static final DocumentUpdateJsonReader LENIENT = DocumentUpdateJsonReader.lenient(TYPES);
    private static final Document EMPTY = Document.of(ALL, ID);
    private static final Document POPULATED = Document.builder(ALL, ID)
            .set("s", new StringValue("text"))
            .set("i", new IntValue(3))
            .set("arr", ArrayValue.of(new StringValue("a"), new StringValue("b")))
            .set("ints", ArrayValue.of(new IntValue(1), new IntValue(2)))
            .set("ws", WeightedSetValue.EMPTY.with(new StringValue("a"), 1))
            .set("m", new MapValue(Map.of(new StringValue("k"), new IntValue(1))))
            .set("mi", new MapValue(Map.of(new IntValue(1), new StructValue(Map.of("age", new IntValue(2))))))
            .set("p", new StructValue(Map.of("name", new StringValue("n"))))
            .set("people", ArrayValue.of(new StructValue(Map.of("age", new IntValue(5)))))
            .set("dense", TensorValue.dense(TensorType.parse("tensor<float>(x[3])"), 1, 2, 3))
            .set("sparse", TensorValue.builder(TensorType.parse("tensor(key{})")).cell(List.of("a"), 1).build())
            .set("mixed", TensorValue.builder(TensorType.parse("tensor(a{},x[2])")).cell(List.of("p", "1"), 2).build())
            .build();

    @FuzzTest(maxDuration = "30s")
    void updateBody(byte[] input) {
        ParsedUpdate lenient;
        try {
            lenient = LENIENT.readUpdate(ID, input);
        } catch (UnknownFieldException e) {
            throw new AssertionError("the lenient reader reported an unknown field", e);
        } catch (DocumentJsonException expected) {
            return;
        }
        apply(lenient.update());
        ParsedUpdate strict;
        try {
            strict = STRICT.readUpdate(ID, input);
        } catch (UnknownFieldException expected) {
            return;
        }
        assertEquals(lenient.update(), strict.update(), "strict and lenient readers read different updates");
        apply(strict.update());
    }

    private static void apply(DocumentUpdate update) {
        for (Document document : List.of(EMPTY, POPULATED)) {
            try {
                update.applyTo(document);
            } catch (UpdateOutOfRangeException expected) {
                // an arithmetic result the field cannot hold: it depends on the stored value, so only applying tells
            }
        }
    }
}
