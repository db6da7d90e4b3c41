package io.sluice.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class TensorValueTest {

    private static final TensorType MIXED = TensorType.parse("tensor(a{},x[2])");

    @Test
    void cell_mixedAddress_isStoredInItsBlock() {
        TensorValue tensor = TensorValue.builder(MIXED).cell(List.of("k", "1"), 5.0).build();
        assertEquals(OptionalDouble.of(5.0), tensor.cell(List.of("k", "1")));
        assertEquals(OptionalDouble.of(0.0), tensor.cell(List.of("k", "0")));
        assertEquals(OptionalDouble.empty(), tensor.cell(List.of("other", "0")));
    }

    @Test
    void cell_byDimensionName_matchesPositionalAddress() {
        TensorValue byName = TensorValue.builder(MIXED).cell(Map.of("x", "0", "a", "k"), 2.0).build();
        TensorValue byPosition = TensorValue.builder(MIXED).cell(List.of("k", "0"), 2.0).build();
        assertEquals(byPosition, byName);
    }

    @Test
    void cell_indexOutOfRange_fails() {
        assertThrows(DocumentException.class, () -> TensorValue.builder(MIXED).cell(List.of("k", "2"), 1.0));
    }

    @Test
    void dense_wrongLength_fails() {
        assertThrows(DocumentException.class, () -> TensorValue.dense(TensorType.parse("tensor(x[3])"), 1.0, 2.0));
    }

    @Test
    void build_denseWithoutCells_isAllZero() {
        TensorValue tensor = TensorValue.builder(TensorType.parse("tensor(x[2])")).build();
        assertEquals(TensorValue.dense(TensorType.parse("tensor(x[2])"), 0.0, 0.0), tensor);
    }

    @Test
    void cells_areRoundedToCellType() {
        TensorValue tensor = TensorValue.dense(TensorType.parse("tensor<int8>(x[2])"), 1.7, -3.2);
        assertEquals(OptionalDouble.of(1.0), tensor.cell(List.of("0")));
        TensorValue floats = TensorValue.dense(TensorType.parse("tensor<float>(x[1])"), 0.1);
        assertEquals(OptionalDouble.of((float) 0.1), floats.cell(List.of("0")));
    }

    @Test
    void bfloat16_keepsTopSixteenBits() {
        TensorValue tensor = TensorValue.dense(TensorType.parse("tensor<bfloat16>(x[1])"), 1.00390625);
        assertEquals(OptionalDouble.of(1.0), tensor.cell(List.of("0")));
    }

    @Test
    void forEachCell_visitsRowMajorWithStringLabels() {
        TensorValue tensor = TensorValue.dense(TensorType.parse("tensor(x[2],y[2])"), 1, 2, 3, 4);
        List<String> seen = new ArrayList<>();
        tensor.forEachCell((address, value) -> seen.add(address + "=" + value));
        assertEquals(List.of("[0, 0]=1.0", "[0, 1]=2.0", "[1, 0]=3.0", "[1, 1]=4.0"), seen);
    }

    @Test
    void builderReuse_doesNotChangeBuiltTensor() {
        TensorValue.Builder builder = TensorValue.builder(MIXED).cell(List.of("k", "0"), 1.0);
        TensorValue first = builder.build();
        builder.cell(List.of("k", "0"), 9.0);
        assertNotEquals(first, builder.build());
        assertEquals(OptionalDouble.of(1.0), first.cell(List.of("k", "0")));
    }
}
