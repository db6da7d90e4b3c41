package io.sluice.feed.cli;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The id and a 128-bit digest of the content of one visited document ({@code {"id":…,"fields":…}}), as
 * {@code sluice diff} compares them: two documents are equal when their fields are equal as JSON values, whatever
 * the order of keys in objects (fields, maps, weighted sets, tensor cells given as objects), however strings are
 * escaped, and however numbers are spelled. Arrays keep their order. Numbers are compared by value: integers exactly,
 * and numbers with a fraction or an exponent as the IEEE double nearest their text, where one with an integral value
 * below 2^63 in magnitude is that integer, so {@code 1}, {@code 1.0} and {@code 1e0} are equal, and so are
 * {@code 0.5} and {@code 0.50}; a float field that one server renders at float precision ({@code 0.1}) and another at
 * double precision ({@code 0.10000000149011612}) differs. An absent {@code fields} is an empty one. Other keys of the
 * line are ignored.
 *
 * <p>The document is read by a scanner of its own, which hashes strings as it passes over their bytes (a string's
 * digest is that of its UTF-8 bytes, escapes decoded), and decodes nothing it does not need: a general JSON parser
 * cost the diff more CPU than visiting the document did. Not thread-safe: one per visiting thread.
 */
final class ContentDigest {

    private static final long STRING = 0x5a1c_e5e7_0000_0001L, INTEGER = 0x5a1c_e5e7_0000_0002L, FLOAT = 0x5a1c_e5e7_0000_0003L,
                              BIG = 0x5a1c_e5e7_0000_0004L, ARRAY = 0x5a1c_e5e7_0000_0005L, OBJECT = 0x5a1c_e5e7_0000_0006L,
                              TRUE = 0x5a1c_e5e7_0000_0007L, FALSE = 0x5a1c_e5e7_0000_0008L, NULL = 0x5a1c_e5e7_0000_0009L;
    private static final double TWO_TO_63 = 0x1p63;
    private static final byte[] ID = bytes("id"), PUT = bytes("put"), FIELDS = bytes("fields");
    private static final byte[] TRUE_TEXT = bytes("true"), FALSE_TEXT = bytes("false"), NULL_TEXT = bytes("null");
    private static final int MAX_DEPTH = 1000;
    private static final long QUOTES = 0x2222_2222_2222_2222L, BACKSLASHES = 0x5c5c_5c5c_5c5c_5c5cL;

    /** A document's id and the two halves of its digest. */
    record Entry(String id, long high, long low) { }

    private byte[] line;
    private int end;
    // The digest of the value just read, as two independent 64-bit lanes.
    private long high, low;
    // The decoded bytes of the last string read with capture.
    private byte[] text = new byte[256];
    private int textLength;

    /**
     * @throws IOException when the line is not a JSON object with a string {@code id} (or {@code put})
     */
    Entry digest(byte[] line, int offset, int length) throws IOException {
        this.line = line;
        this.end = offset + length;
        String id = null;
        long fieldsHigh = mixHigh(OBJECT), fieldsLow = mixLow(OBJECT); // an empty object's, as value() digests one
        try {
            int pos = expect(skip(offset), '{');
            pos = skip(pos);
            if (at(pos) == '}') pos++;
            else {
                while (true) {
                    pos = string(expect(pos, '"'), STRING, true);
                    boolean isId = equalsText(ID) || equalsText(PUT), isFields = equalsText(FIELDS);
                    pos = skip(expect(skip(pos), ':'));
                    if (isId && at(pos) == '"') {
                        pos = string(pos + 1, STRING, true);
                        id = new String(text, 0, textLength, StandardCharsets.UTF_8);
                    }
                    else {
                        pos = value(pos, 0);
                        if (isFields) {
                            fieldsHigh = high;
                            fieldsLow = low;
                        }
                    }
                    pos = skip(pos);
                    if (at(pos) == ',') pos = skip(pos + 1);
                    else {
                        pos = expect(pos, '}');
                        break;
                    }
                }
            }
            if (skip(pos) != end) throw new IOException("text after the document");
        }
        catch (IOException | RuntimeException e) {
            throw new IOException("Not a JSON document: " + text(line, offset, length) + ": " + e.getMessage(), e);
        }
        finally {
            this.line = null;
        }
        if (id == null) throw new IOException("A visited document without an id: " + text(line, offset, length));
        return new Entry(id, fieldsHigh, fieldsLow);
    }

    /** Digests the value at {@code pos} into {@link #high} and {@link #low}; returns the position after it. */
    private int value(int pos, int depth) throws IOException {
        if (depth > MAX_DEPTH) throw new IOException("nested deeper than " + MAX_DEPTH);
        int c = at(pos);
        switch (c) {
            case '"':
                return string(pos + 1, STRING, false);
            case '{': {
                // A sum of the members' digests: the same whatever order they come in.
                long h = 0, l = 0, count = 0;
                pos = skip(pos + 1);
                if (at(pos) == '}') pos++;
                else {
                    while (true) {
                        pos = string(expect(pos, '"'), STRING, false);
                        long keyHigh = high, keyLow = low;
                        pos = value(skip(expect(skip(pos), ':')), depth + 1);
                        h += mixHigh(keyHigh ^ Long.rotateLeft(high, 31) * 0xff51_afd7_ed55_8ccdL);
                        l += mixLow(keyLow + Long.rotateLeft(low, 17) * 0xc4ce_b9fe_1a85_ec53L);
                        count++;
                        pos = skip(pos);
                        if (at(pos) == ',') pos = skip(pos + 1);
                        else {
                            pos = expect(pos, '}');
                            break;
                        }
                    }
                }
                high = mixHigh(h ^ OBJECT ^ count);
                low = mixLow(l + OBJECT + count);
                return pos;
            }
            case '[': {
                long h = ARRAY, l = ~ARRAY, count = 0;
                pos = skip(pos + 1);
                if (at(pos) == ']') pos++;
                else {
                    while (true) {
                        pos = value(pos, depth + 1);
                        h = mixHigh(h * 0x9e37_79b9_7f4a_7c15L + high);
                        l = mixLow(l * 0xc2b2_ae3d_27d4_eb4fL + low);
                        count++;
                        pos = skip(pos);
                        if (at(pos) == ',') pos = skip(pos + 1);
                        else {
                            pos = expect(pos, ']');
                            break;
                        }
                    }
                }
                high = mixHigh(h ^ count);
                low = mixLow(l + count);
                return pos;
            }
            case 't': return literal(pos, TRUE_TEXT, TRUE, 1);
            case 'f': return literal(pos, FALSE_TEXT, FALSE, 0);
            case 'n': return literal(pos, NULL_TEXT, NULL, 0);
            default:
                if (c == '-' || c >= '0' && c <= '9') return number(pos);
                throw new IOException("unexpected " + describe(pos));
        }
    }

    private int literal(int pos, byte[] literal, long tag, long value) throws IOException {
        if (pos + literal.length > end || ! Arrays.equals(line, pos, pos + literal.length, literal, 0, literal.length))
            throw new IOException("unexpected " + describe(pos));
        scalar(tag, value);
        return pos + literal.length;
    }

    private int number(int pos) throws IOException {
        int start = pos;
        boolean integral = true;
        long value = 0;
        boolean negative = line[pos] == '-';
        if (negative) pos++;
        int digits = 0;
        for (; pos < end; pos++) {
            int c = line[pos];
            if (c >= '0' && c <= '9') {
                value = value * 10 + (c - '0');
                digits++;
            }
            else if (c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-') integral = false;
            else break;
        }
        if (digits == 0) throw new IOException("unexpected " + describe(start));
        if (integral && digits <= 18) {
            scalar(INTEGER, negative ? -value : value);
            return pos;
        }
        String number = new String(line, start, pos - start, StandardCharsets.ISO_8859_1);
        try {
            if (integral) {
                BigInteger big = new BigInteger(number);
                if (big.bitLength() < 64) scalar(INTEGER, big.longValue());
                else {
                    byte[] canonical = big.toString().getBytes(StandardCharsets.ISO_8859_1);
                    hashBytes(canonical, BIG);
                }
            }
            else {
                double d = Double.parseDouble(number);
                if (d == Math.rint(d) && Math.abs(d) < TWO_TO_63) scalar(INTEGER, (long) d); // -0.0 too
                else scalar(FLOAT, Double.doubleToLongBits(d));
            }
        }
        catch (NumberFormatException e) {
            throw new IOException("not a number: '" + number + "'");
        }
        return pos;
    }

    private void scalar(long tag, long value) {
        high = mixHigh(tag ^ mixHigh(value));
        low = mixLow(tag + mixLow(~value));
    }

    /**
     * Digests the string whose opening quote is just before {@code pos} (its UTF-8 bytes, escapes decoded) into
     * {@link #high} and {@link #low}, and copies those bytes to {@link #text} when {@code capture}; returns the
     * position after its closing quote. Bytes are hashed eight at a time, as one word.
     */
    private int string(int pos, long tag, boolean capture) throws IOException {
        long h = 0xcbf2_9ce4_8422_2325L ^ tag, l = 0x8422_2325_cbf2_9ce4L + tag, word = 0;
        int inWord = 0;
        long length = 0;
        textLength = 0;
        byte[] b = line;
        while (true) {
            // Eight plain bytes at once, while the word is empty: a string's digest does not depend on the path taken.
            if ( ! capture && inWord == 0) {
                while (pos + 8 <= end) {
                    long w = (b[pos] & 0xffL) << 56 | (b[pos + 1] & 0xffL) << 48 | (b[pos + 2] & 0xffL) << 40 | (b[pos + 3] & 0xffL) << 32
                             | (b[pos + 4] & 0xffL) << 24 | (b[pos + 5] & 0xffL) << 16 | (b[pos + 6] & 0xffL) << 8 | (b[pos + 7] & 0xffL);
                    if (hasByte(w, QUOTES) || hasByte(w, BACKSLASHES)) break;
                    h = Long.rotateLeft((h ^ w) * 0x9e37_79b9_7f4a_7c15L, 31);
                    l = Long.rotateLeft((l + w) * 0xc2b2_ae3d_27d4_eb4fL, 29);
                    pos += 8;
                    length += 8;
                }
            }
            if (pos >= end) throw new IOException("unterminated string");
            int c = b[pos++] & 0xff;
            if (c == '"') break;
            if (c == '\\') {
                int codePoint;
                if (pos >= end) throw new IOException("unterminated string");
                int e = b[pos++];
                switch (e) {
                    case '"', '\\', '/' -> codePoint = e;
                    case 'b' -> codePoint = '\b';
                    case 'f' -> codePoint = '\f';
                    case 'n' -> codePoint = '\n';
                    case 'r' -> codePoint = '\r';
                    case 't' -> codePoint = '\t';
                    case 'u' -> {
                        codePoint = hex4(pos);
                        pos += 4;
                        if (Character.isHighSurrogate((char) codePoint) && pos + 6 <= end && b[pos] == '\\' && b[pos + 1] == 'u') {
                            int next = hex4(pos + 2);
                            if (Character.isLowSurrogate((char) next)) {
                                codePoint = Character.toCodePoint((char) codePoint, (char) next);
                                pos += 6;
                            }
                        }
                    }
                    default -> throw new IOException("bad escape '\\" + (char) e + "'");
                }
                byte[] utf8 = utf8(codePoint);
                for (byte u : utf8) {
                    word = word << 8 | (u & 0xff);
                    if (++inWord == 8) {
                        h = Long.rotateLeft((h ^ word) * 0x9e37_79b9_7f4a_7c15L, 31);
                        l = Long.rotateLeft((l + word) * 0xc2b2_ae3d_27d4_eb4fL, 29);
                        word = 0;
                        inWord = 0;
                    }
                    if (capture) capture(u);
                }
                length += utf8.length;
                continue;
            }
            word = word << 8 | c;
            if (++inWord == 8) {
                h = Long.rotateLeft((h ^ word) * 0x9e37_79b9_7f4a_7c15L, 31);
                l = Long.rotateLeft((l + word) * 0xc2b2_ae3d_27d4_eb4fL, 29);
                word = 0;
                inWord = 0;
            }
            length++;
            if (capture) capture((byte) c);
        }
        if (inWord > 0) {
            h = Long.rotateLeft((h ^ word) * 0x9e37_79b9_7f4a_7c15L, 31);
            l = Long.rotateLeft((l + word) * 0xc2b2_ae3d_27d4_eb4fL, 29);
        }
        high = mixHigh(h ^ length);
        low = mixLow(l ^ length);
        return pos;
    }

    /** Whether any byte of {@code word} equals the byte repeated in {@code pattern}. */
    private static boolean hasByte(long word, long pattern) {
        long x = word ^ pattern;
        return ((x - 0x0101_0101_0101_0101L) & ~x & 0x8080_8080_8080_8080L) != 0;
    }

    /** Digests {@code bytes} as a string with {@code tag}. */
    private void hashBytes(byte[] bytes, long tag) throws IOException {
        byte[] saved = line;
        int savedEnd = end;
        byte[] quoted = Arrays.copyOf(bytes, bytes.length + 1);
        quoted[bytes.length] = '"';
        line = quoted;
        end = quoted.length;
        string(0, tag, false);
        line = saved;
        end = savedEnd;
    }

    private void capture(byte b) {
        if (textLength == text.length) text = Arrays.copyOf(text, text.length * 2);
        text[textLength++] = b;
    }

    private boolean equalsText(byte[] expected) {
        return Arrays.equals(text, 0, textLength, expected, 0, expected.length);
    }

    private int hex4(int pos) throws IOException {
        if (pos + 4 > end) throw new IOException("unterminated \\u escape");
        int value = 0;
        for (int i = pos; i < pos + 4; i++) {
            int digit = Character.digit(line[i], 16);
            if (digit < 0) throw new IOException("bad \\u escape");
            value = value << 4 | digit;
        }
        return value;
    }

    private static byte[] utf8(int codePoint) {
        if (codePoint < 0x80) return new byte[] { (byte) codePoint };
        if (codePoint < 0x800) return new byte[] { (byte) (0xc0 | codePoint >> 6), (byte) (0x80 | codePoint & 0x3f) };
        if (codePoint < 0x10000)
            return new byte[] { (byte) (0xe0 | codePoint >> 12), (byte) (0x80 | codePoint >> 6 & 0x3f), (byte) (0x80 | codePoint & 0x3f) };
        return new byte[] { (byte) (0xf0 | codePoint >> 18), (byte) (0x80 | codePoint >> 12 & 0x3f),
                            (byte) (0x80 | codePoint >> 6 & 0x3f), (byte) (0x80 | codePoint & 0x3f) };
    }

    /** The position of the first non-whitespace byte at or after {@code pos}. */
    private int skip(int pos) {
        while (pos < end) {
            byte c = line[pos];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') break;
            pos++;
        }
        return pos;
    }

    /** The byte at {@code pos}, or -1 past the end. */
    private int at(int pos) {
        return pos < end ? line[pos] & 0xff : -1;
    }

    private int expect(int pos, char c) throws IOException {
        if (at(pos) != c) throw new IOException("expected '" + c + "' but found " + describe(pos));
        return pos + 1;
    }

    private String describe(int pos) {
        return pos >= end ? "the end" : "'" + (char) (line[pos] & 0xff) + "' at " + pos;
    }

    /** A 64-bit finalizer (xor-shift-multiply, as MurmurHash3's): every input bit affects every output bit. */
    private static long mixHigh(long x) {
        x = (x ^ (x >>> 33)) * 0xff51_afd7_ed55_8ccdL;
        x = (x ^ (x >>> 33)) * 0xc4ce_b9fe_1a85_ec53L;
        return x ^ (x >>> 33);
    }

    /** A second, independent finalizer, with other shifts and multipliers, for the other half of the digest. */
    private static long mixLow(long x) {
        x = (x ^ (x >>> 30)) * 0xbf58_476d_1ce4_e5b9L;
        x = (x ^ (x >>> 27)) * 0x94d0_49bb_1331_11ebL;
        return x ^ (x >>> 31);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static String text(byte[] line, int offset, int length) {
        return new String(line, offset, Math.min(length, 200), StandardCharsets.UTF_8);
    }

}
