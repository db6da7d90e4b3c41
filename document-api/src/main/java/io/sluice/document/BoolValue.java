package io.sluice.document;

/** A {@code bool} field value. */
public record BoolValue(boolean value) implements FieldValue {

    public static final BoolValue TRUE = new BoolValue(true);
    public static final BoolValue FALSE = new BoolValue(false);

    public static BoolValue of(boolean value) {
        return value ? TRUE : FALSE;
    }

    @Override
    public String toString() {
        return String.valueOf(value);
    }
}
