package io.sluice.document.json;

import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * UTF-8 JSON text that a generator writes as it is ({@code writeRawValue}): a byte generator copies the bytes; the
 * character and quoted forms, which only other generators and field names use, go through a decoded string.
 */
final class RawJson implements SerializableString {

    private final byte[] bytes;
    private final int offset;
    private final int length;
    private SerializedString decoded;

    RawJson(FieldsJson json) {
        this.bytes = json.bytes();
        this.offset = json.offset();
        this.length = json.length();
    }

    private SerializedString decoded() {
        if (decoded == null)
            decoded = new SerializedString(new String(bytes, offset, length, StandardCharsets.UTF_8));
        return decoded;
    }

    @Override
    public String getValue() {
        return decoded().getValue();
    }

    @Override
    public int charLength() {
        return decoded().charLength();
    }

    @Override
    public char[] asQuotedChars() {
        return decoded().asQuotedChars();
    }

    @Override
    public byte[] asUnquotedUTF8() {
        return Arrays.copyOfRange(bytes, offset, offset + length);
    }

    @Override
    public byte[] asQuotedUTF8() {
        return decoded().asQuotedUTF8();
    }

    @Override
    public int appendQuotedUTF8(byte[] buffer, int at) {
        return decoded().appendQuotedUTF8(buffer, at);
    }

    @Override
    public int appendQuoted(char[] buffer, int at) {
        return decoded().appendQuoted(buffer, at);
    }

    /** Copies the bytes to {@code buffer} from {@code at}, or answers -1 if they do not fit (the generator then flushes). */
    @Override
    public int appendUnquotedUTF8(byte[] buffer, int at) {
        if (at + length > buffer.length)
            return -1;
        System.arraycopy(bytes, offset, buffer, at, length);
        return length;
    }

    @Override
    public int appendUnquoted(char[] buffer, int at) {
        return decoded().appendUnquoted(buffer, at);
    }

    @Override
    public int writeQuotedUTF8(OutputStream out) throws IOException {
        return decoded().writeQuotedUTF8(out);
    }

    @Override
    public int writeUnquotedUTF8(OutputStream out) throws IOException {
        out.write(bytes, offset, length);
        return length;
    }

    @Override
    public int putQuotedUTF8(ByteBuffer buffer) throws IOException {
        return decoded().putQuotedUTF8(buffer);
    }

    @Override
    public int putUnquotedUTF8(ByteBuffer buffer) {
        if (length > buffer.remaining())
            return -1;
        buffer.put(bytes, offset, length);
        return length;
    }

}
