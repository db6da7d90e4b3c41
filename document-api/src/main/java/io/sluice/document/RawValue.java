package io.sluice.document;

import java.util.Arrays;
import java.util.Base64;

/** A {@code raw} field value: bytes, rendered in JSON as basic base64. */
public final class RawValue implements FieldValue {

    private final byte[] bytes;

    private RawValue(byte[] bytes) {
        this.bytes = bytes;
    }

    /** A value holding a copy of these bytes. */
    public static RawValue of(byte[] bytes) {
        return new RawValue(bytes.clone());
    }

    /** Decodes basic base64; throws {@link DocumentException} naming the text if it is not base64. */
    public static RawValue fromBase64(String base64) {
        try {
            return new RawValue(Base64.getDecoder().decode(base64));
        } catch (IllegalArgumentException e) {
            throw new InvalidDocumentException("Invalid base64 for raw value '" + base64 + "': " + e.getMessage(), e);
        }
    }

    /** A copy of the bytes. */
    public byte[] bytes() {
        return bytes.clone();
    }

    public int length() {
        return bytes.length;
    }

    public String toBase64() {
        return Base64.getEncoder().encodeToString(bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RawValue && Arrays.equals(((RawValue) o).bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return toBase64();
    }
}
