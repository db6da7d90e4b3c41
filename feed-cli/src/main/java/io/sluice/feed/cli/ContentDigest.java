package io.sluice.feed.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The id and a 128-bit digest of the content of one visited document ({@code {"id":…,"fields":…}}), as
 * {@code sluice diff} compares them: two documents are equal when their fields are equal as JSON values, whatever
 * the order of keys in objects (fields, maps, weighted sets, tensor cells given as objects) and however numbers are
 * spelled. Arrays keep their order. Numbers are compared by value: integers exactly, and numbers with a fraction or
 * an exponent as the IEEE double nearest their text, where one with an integral value below 2^63 in magnitude is that
 * integer, so {@code 1}, {@code 1.0} and {@code 1e0} are equal, and so are {@code 0.5} and {@code 0.50}; a float
 * field that one server renders at float precision ({@code 0.1}) and another at double precision
 * ({@code 0.10000000149011612}) differs. An absent {@code fields} is an empty one. Other keys of the line are ignored.
 *
 * <p>Not thread-safe: one per visiting thread.
 */
final class ContentDigest {

    private static final JsonFactory json = new JsonFactory();

    private static final long STRING = 0x5a1c_e5e7_0000_0001L, INTEGER = 0x5a1c_e5e7_0000_0002L, FLOAT = 0x5a1c_e5e7_0000_0003L,
                              BIG = 0x5a1c_e5e7_0000_0004L, ARRAY = 0x5a1c_e5e7_0000_0005L, OBJECT = 0x5a1c_e5e7_0000_0006L,
                              TRUE = 0x5a1c_e5e7_0000_0007L, FALSE = 0x5a1c_e5e7_0000_0008L, NULL = 0x5a1c_e5e7_0000_0009L;
    private static final double TWO_TO_63 = 0x1p63;

    /** A document's id and the two halves of its digest. */
    record Entry(String id, long high, long low) {
        boolean sameContent(long otherHigh, long otherLow) { return high == otherHigh && low == otherLow; }
    }

    // The digest of the value just read, as two independent 64-bit lanes.
    private long high, low;

    /**
     * @throws IOException when the line is not a JSON object with a string {@code id} (or {@code put})
     */
    Entry digest(byte[] line, int offset, int length) throws IOException {
        String id = null;
        long fieldsHigh = -1, fieldsLow = -1;
        boolean fields = false;
        try (JsonParser parser = json.createParser(line, offset, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) throw new IOException("Not a JSON object: " + text(line, offset, length));
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken token = parser.nextToken();
                if ((name.equals("id") || name.equals("put")) && token == JsonToken.VALUE_STRING) id = parser.getText();
                else if (name.equals("fields")) {
                    value(parser, token);
                    fieldsHigh = high;
                    fieldsLow = low;
                    fields = true;
                }
                else parser.skipChildren();
            }
        }
        catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException("Not a JSON document: " + text(line, offset, length) + ": " + e.getOriginalMessage(), e);
        }
        if (id == null) throw new IOException("A visited document without an id: " + text(line, offset, length));
        if ( ! fields) {
            fieldsHigh = mixHigh(OBJECT);
            fieldsLow = mixLow(OBJECT);
        }
        return new Entry(id, fieldsHigh, fieldsLow);
    }

    /** Digests the value starting at {@code token} into {@link #high} and {@link #low}. */
    private void value(JsonParser parser, JsonToken token) throws IOException {
        switch (token) {
            case VALUE_STRING -> string(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength(), STRING);
            case VALUE_NUMBER_INT -> {
                if (parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    String digits = parser.getBigIntegerValue().toString();
                    string(digits.toCharArray(), 0, digits.length(), BIG);
                }
                else integer(parser.getLongValue());
            }
            case VALUE_NUMBER_FLOAT -> {
                double value = parser.getDoubleValue();
                if (value == Math.rint(value) && Math.abs(value) < TWO_TO_63) integer((long) value); // -0.0 too
                else scalar(FLOAT, Double.doubleToLongBits(value));
            }
            case VALUE_TRUE -> scalar(TRUE, 1);
            case VALUE_FALSE -> scalar(FALSE, 0);
            case VALUE_NULL -> scalar(NULL, 0);
            case START_ARRAY -> {
                long h = ARRAY, l = ~ARRAY, count = 0;
                for (JsonToken element = parser.nextToken(); element != JsonToken.END_ARRAY; element = parser.nextToken()) {
                    value(parser, element);
                    h = mixHigh(h * 0x9e37_79b9_7f4a_7c15L + high);
                    l = mixLow(l * 0xc2b2_ae3d_27d4_eb4fL + low);
                    count++;
                }
                high = mixHigh(h ^ count);
                low = mixLow(l + count);
            }
            case START_OBJECT -> {
                // A sum of the members' digests: the same whatever order they come in.
                long h = 0, l = 0, count = 0;
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    string(name.toCharArray(), 0, name.length(), STRING);
                    long keyHigh = high, keyLow = low;
                    value(parser, parser.nextToken());
                    h += mixHigh(keyHigh ^ Long.rotateLeft(high, 31) * 0xff51_afd7_ed55_8ccdL);
                    l += mixLow(keyLow + Long.rotateLeft(low, 17) * 0xc4ce_b9fe_1a85_ec53L);
                    count++;
                }
                high = mixHigh(h ^ OBJECT ^ count);
                low = mixLow(l + OBJECT + count);
            }
            default -> throw new IOException("Unexpected JSON token " + token + " in a document's fields");
        }
    }

    private void integer(long value) {
        scalar(INTEGER, value);
    }

    private void scalar(long tag, long value) {
        high = mixHigh(tag ^ mixHigh(value));
        low = mixLow(tag + mixLow(~value));
    }

    private void string(char[] chars, int offset, int length, long tag) {
        long h = 0xcbf2_9ce4_8422_2325L ^ tag, l = 0x84222325_cbf29ce4L + tag;
        for (int i = offset; i < offset + length; i++) {
            h = (h ^ chars[i]) * 0x0000_0100_0000_01b3L;
            l = (l + chars[i]) * 0x9e37_79b9_7f4a_7c15L;
        }
        high = mixHigh(h ^ length);
        low = mixLow(l ^ length);
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

    private static String text(byte[] line, int offset, int length) {
        return new String(line, offset, Math.min(length, 200), StandardCharsets.UTF_8);
    }

}
