package io.sluice.document.json;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.document.TensorType;
import io.sluice.document.TensorValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/** Writes tensors in the forms of {@link TensorFormat}. */
final class TensorJsonWriter {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private TensorJsonWriter() {
    }

    static void write(JsonGenerator generator, TensorValue tensor, TensorFormat format) throws IOException {
        TensorType type = tensor.type();
        boolean wrapped = !format.valueOnly();
        if (wrapped) {
            generator.writeStartObject();
            generator.writeStringField("type", type.typeName());
        }
        int mapped = type.mappedDimensions().size();
        int indexed = type.indexedDimensions().size();
        if (format.verbose() || (mapped > 1 && indexed == 0)) {
            if (wrapped) generator.writeFieldName("cells");
            writeCellList(generator, tensor);
        } else if (mapped == 0) {
            if (wrapped) generator.writeFieldName("values");
            writeDense(generator, tensor, List.of(), format.hex());
        } else if (indexed == 0) {
            if (wrapped) generator.writeFieldName("cells");
            generator.writeStartObject();
            for (List<String> address : tensor.blockAddresses()) {
                generator.writeFieldName(address.get(0));
                generator.writeNumber(tensor.blockCell(address, 0));
            }
            generator.writeEndObject();
        } else if (mapped == 1) {
            if (wrapped) generator.writeFieldName("blocks");
            generator.writeStartObject();
            for (List<String> address : tensor.blockAddresses()) {
                generator.writeFieldName(address.get(0));
                writeDense(generator, tensor, address, format.hex());
            }
            generator.writeEndObject();
        } else {
            if (wrapped) generator.writeFieldName("blocks");
            writeBlockList(generator, tensor, format.hex());
        }
        if (wrapped) generator.writeEndObject();
    }

    private static void writeCellList(JsonGenerator generator, TensorValue tensor) throws IOException {
        List<TensorType.Dimension> dimensions = tensor.type().dimensions();
        generator.writeStartArray();
        try {
            tensor.forEachCell((address, value) -> {
                try {
                    generator.writeStartObject();
                    generator.writeObjectFieldStart("address");
                    for (int i = 0; i < address.size(); i++)
                        generator.writeStringField(dimensions.get(i).name(), address.get(i));
                    generator.writeEndObject();
                    generator.writeNumberField("value", value);
                    generator.writeEndObject();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        generator.writeEndArray();
    }

    private static void writeBlockList(JsonGenerator generator, TensorValue tensor, boolean hex) throws IOException {
        List<TensorType.Dimension> mapped = tensor.type().mappedDimensions();
        generator.writeStartArray();
        for (List<String> address : tensor.blockAddresses()) {
            generator.writeStartObject();
            generator.writeObjectFieldStart("address");
            for (int i = 0; i < address.size(); i++) generator.writeStringField(mapped.get(i).name(), address.get(i));
            generator.writeEndObject();
            generator.writeFieldName("values");
            writeDense(generator, tensor, address, hex);
            generator.writeEndObject();
        }
        generator.writeEndArray();
    }

    /** The block at {@code address} as nested arrays (one level per indexed dimension) or one hex string. */
    private static void writeDense(JsonGenerator generator, TensorValue tensor, List<String> address, boolean hex)
            throws IOException {
        TensorType type = tensor.type();
        if (hex) {
            int digits = type.cellType().hexDigits();
            char[] text = new char[type.denseSubspaceSize() * digits];
            for (int cell = 0; cell < type.denseSubspaceSize(); cell++) {
                long bits = type.cellType().toBits(tensor.blockCell(address, cell));
                for (int i = digits - 1; i >= 0; i--, bits >>>= 4) text[cell * digits + i] = HEX[(int) (bits & 0xf)];
            }
            generator.writeString(text, 0, text.length);
            return;
        }
        writeNested(generator, tensor, address, type.indexedDimensions(), 0, 0);
    }

    private static int writeNested(JsonGenerator generator, TensorValue tensor, List<String> address,
                                   List<TensorType.Dimension> indexed, int level, int offset) throws IOException {
        generator.writeStartArray();
        int size = indexed.get(level).size();
        for (int i = 0; i < size; i++) {
            if (level == indexed.size() - 1) generator.writeNumber(tensor.blockCell(address, offset++));
            else offset = writeNested(generator, tensor, address, indexed, level + 1, offset);
        }
        generator.writeEndArray();
        return offset;
    }
}
