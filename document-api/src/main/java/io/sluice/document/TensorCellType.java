package io.sluice.document;

/** The value type of tensor cells; values are stored as doubles already rounded to the cell type. */
public enum TensorCellType {

    DOUBLE("double", 16), FLOAT("float", 8), BFLOAT16("bfloat16", 4), INT8("int8", 2);

    private final String schemaName;
    private final int hexDigits;

    TensorCellType(String schemaName, int hexDigits) {
        this.schemaName = schemaName;
        this.hexDigits = hexDigits;
    }

    /** The name used in tensor type specs, e.g. {@code bfloat16}. */
    public String schemaName() {
        return schemaName;
    }

    /** How many hex digits encode one cell in the hex formats. */
    public int hexDigits() {
        return hexDigits;
    }

    /** The cell type with this spec name; throws {@link DocumentException} naming it if unknown. */
    public static TensorCellType fromSchemaName(String name) {
        for (TensorCellType type : values())
            if (type.schemaName.equals(name)) return type;
        throw new InvalidDocumentException("Unknown tensor cell type '" + name + "'; expected double, float, bfloat16 or int8");
    }

    /** The value a cell of this type holds when given {@code value}. */
    public double round(double value) {
        switch (this) {
            case DOUBLE: return value;
            case FLOAT: return (float) value;
            case BFLOAT16: return Float.intBitsToFloat(Float.floatToRawIntBits((float) value) & 0xffff0000);
            case INT8: return (byte) value;
            default: throw new AssertionError(this);
        }
    }

    /** The bits of a cell value in hex encoding (the low {@code 4 * hexDigits()} bits). */
    public long toBits(double value) {
        switch (this) {
            case DOUBLE: return Double.doubleToRawLongBits(value);
            case FLOAT: return Float.floatToRawIntBits((float) value) & 0xffffffffL;
            case BFLOAT16: return (Float.floatToRawIntBits((float) value) >>> 16) & 0xffffL;
            case INT8: return ((byte) value) & 0xffL;
            default: throw new AssertionError(this);
        }
    }

    /** The cell value encoded by these bits. */
    public double fromBits(long bits) {
        switch (this) {
            case DOUBLE: return Double.longBitsToDouble(bits);
            case FLOAT: return Float.intBitsToFloat((int) bits);
            case BFLOAT16: return Float.intBitsToFloat(((int) bits) << 16);
            case INT8: return (byte) bits;
            default: throw new AssertionError(this);
        }
    }

    @Override
    public String toString() {
        return schemaName;
    }
}
