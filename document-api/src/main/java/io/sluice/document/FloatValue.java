package io.sluice.document;

/** A {@code float} field value; also the value of a {@code float16} field, see {@link #float16(double)}. */
public record FloatValue(float value) implements NumericValue {

    private static final float LARGEST_FINITE_HALF_ROUNDED = 65520f; // half way from 65504 to 65536: ties go up
    private static final float SMALLEST_NORMAL_HALF = 0x1p-14f;
    private static final float SUBNORMAL_HALF_STEP = 0x1p-24f;

    /**
     * {@code value} rounded to the nearest IEEE 754 half-precision number (ties to even), as Vespa stores a
     * {@code float16} field; beyond half's range it becomes an infinity.
     */
    public static FloatValue float16(double value) {
        float single = (float) value;
        if (Float.isNaN(single) || Float.isInfinite(single))
            return new FloatValue(single);
        float magnitude = Math.abs(single);
        if (magnitude >= LARGEST_FINITE_HALF_ROUNDED)
            return new FloatValue(Math.copySign(Float.POSITIVE_INFINITY, single));
        // Halves have 10 fraction bits: the step is 2^(exponent - 10), or fixed below the normal range.
        float step = magnitude < SMALLEST_NORMAL_HALF ? SUBNORMAL_HALF_STEP
                                                      : Math.scalb(1f, Math.getExponent(magnitude) - 10);
        float rounded = (float) (Math.rint(magnitude / step) * step); // scaling by powers of two is exact
        return new FloatValue(Math.copySign(rounded, single));
    }

    @Override
    public double doubleValue() {
        return value;
    }

    @Override
    public long longValue() {
        return (long) value;
    }

    @Override
    public String toString() {
        return String.valueOf(value);
    }
}
