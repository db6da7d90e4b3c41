package io.sluice.document;

/** A {@code position}: latitude and longitude stored as integer micro-degrees (as Vespa does; no range check). */
public record PositionValue(int latitudeMicro, int longitudeMicro) implements FieldValue {

    /** A position from degrees, rounded to the nearest micro-degree; throws {@link DocumentException} if unusable. */
    public static PositionValue ofDegrees(double latitude, double longitude) {
        return new PositionValue(toMicro(latitude), toMicro(longitude));
    }

    private static int toMicro(double degrees) {
        double micro = Math.rint(degrees * 1e6);
        if (!(Math.abs(micro) <= Integer.MAX_VALUE))
            throw new InvalidDocumentException("Position coordinate " + degrees + " is out of range");
        return (int) micro;
    }

    public double latitude() {
        return latitudeMicro / 1e6;
    }

    public double longitude() {
        return longitudeMicro / 1e6;
    }

    @Override
    public String toString() {
        return "(" + latitude() + ", " + longitude() + ")";
    }
}
