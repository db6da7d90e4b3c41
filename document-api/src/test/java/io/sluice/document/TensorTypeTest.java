package io.sluice.document;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class TensorTypeTest {

    @Test
    void parse_indexedFloat_keepsCellTypeAndSize() {
        TensorType type = TensorType.parse("tensor<float>(x[4])");
        assertEquals(TensorCellType.FLOAT, type.cellType());
        assertEquals(List.of(TensorType.Dimension.indexed("x", 4)), type.dimensions());
        assertEquals(4, type.denseSubspaceSize());
    }

    @Test
    void parse_mixed_sortsDimensionsByName() {
        TensorType type = TensorType.parse("tensor<bfloat16>( x[3] , a{} )");
        assertEquals("tensor<bfloat16>(a{},x[3])", type.typeName());
        assertEquals(List.of(TensorType.Dimension.mapped("a")), type.mappedDimensions());
        assertEquals(3, type.denseSubspaceSize());
    }

    @Test
    void parse_doubleCells_omitsCellTypeInName() {
        assertEquals("tensor(key{})", TensorType.parse("tensor<double>(key{})").typeName());
    }

    @Test
    void parse_unknownCellType_namesIt() {
        DocumentException e = assertThrows(DocumentException.class, () -> TensorType.parse("tensor<int4>(x[2])"));
        assertTrue(e.getMessage().contains("int4"), e.getMessage());
    }

    @Test
    void parse_zeroSize_fails() {
        assertThrows(DocumentException.class, () -> TensorType.parse("tensor(x[0])"));
    }

    @Test
    void parse_repeatedDimension_fails() {
        assertThrows(DocumentException.class, () -> TensorType.parse("tensor(x[2],x{})"));
    }

    @Test
    void parse_trailingText_fails() {
        assertThrows(DocumentException.class, () -> TensorType.parse("tensor(x[2]) y"));
    }
}
