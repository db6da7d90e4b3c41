package io.sluice.document;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FloatValueTest {

    private static float half(double value) {
        return FloatValue.float16(value).value();
    }

    @Test
    void float16_keepsValuesHalfPrecisionHolds() {
        assertEquals(List.of(1.0f, -2.5f, 65504f, 0x1p-24f, 0f),
                     List.of(half(1.0), half(-2.5), half(65504), half(0x1p-24), half(0)));
    }

    @Test
    void float16_roundsToNearestTiesToEven() {
        assertEquals(List.of(0.0999755859375f, 2048f, 2052f, 65504f),
                     List.of(half(0.1), half(2049), half(2051), half(65519)));
    }

    @Test
    void float16_beyondRangeIsInfinityAndTinyIsZero() {
        assertEquals(List.of(Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, 0f),
                     List.of(half(65520), half(-1e6), half(1e-8)));
    }

    @Test
    void numericValueOfFloat16_isRounded() {
        assertEquals(new FloatValue(0.0999755859375f), NumericValue.of(PrimitiveType.FLOAT16, 0.1));
    }

}
