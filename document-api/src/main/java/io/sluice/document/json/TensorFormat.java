package io.sluice.document.json;

/**
 * How tensors are rendered ({@code format.tensors}): {@code short} (default) picks the most compact form for the
 * type, {@code long} always uses {@code cells} with full addresses, {@code hex} writes dense parts as hex strings.
 * The {@code -value} variants write only the value, without the {@code {"type":...}} wrapper.
 */
public enum TensorFormat {

    SHORT("short", false, false, false),
    LONG("long", true, false, false),
    SHORT_VALUE("short-value", false, false, true),
    LONG_VALUE("long-value", true, false, true),
    HEX("hex", false, true, false),
    HEX_VALUE("hex-value", false, true, true);

    private final String parameter;
    private final boolean verbose;
    private final boolean hex;
    private final boolean valueOnly;

    TensorFormat(String parameter, boolean verbose, boolean hex, boolean valueOnly) {
        this.parameter = parameter;
        this.verbose = verbose;
        this.hex = hex;
        this.valueOnly = valueOnly;
    }

    /** The format named by a {@code format.tensors} value; throws {@link DocumentJsonException} naming it if unknown. */
    public static TensorFormat fromParameter(String value) {
        for (TensorFormat format : values())
            if (format.parameter.equals(value)) return format;
        throw new DocumentJsonException("Unknown tensor format '" + value
                                        + "'; expected one of short, long, short-value, long-value, hex, hex-value");
    }

    /** The {@code format.tensors} spelling. */
    public String parameter() {
        return parameter;
    }

    boolean verbose() {
        return verbose;
    }

    boolean hex() {
        return hex;
    }

    boolean valueOnly() {
        return valueOnly;
    }
}
