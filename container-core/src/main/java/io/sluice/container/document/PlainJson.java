package io.sluice.container.document;

import io.sluice.document.json.FieldsJson;
import io.sluice.http.common.BodySlabs;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The most frequent {@code /document/v1} bodies, {@code {"pathId":"…","id":"…"}} and the same with {@code "fields"},
 * put together from bytes when the path and the id are printable ASCII without a quote or backslash (almost always:
 * the path is percent-encoded), so no JSON generator is set up for them. Byte for byte what jackson-core writes; for
 * anything that would need escaping it returns null and the caller uses the generator.
 */
final class PlainJson {

    private static final byte[] PATH_ID = bytes("{\"pathId\":\""), ID = bytes("\",\"id\":\""),
                                FIELDS = bytes("\",\"fields\":"), END = bytes("\"}");

    private PlainJson() { }

    /**
     * The body for {@code pathId} and {@code id}, with {@code fields} if not null, written where it is sent from
     * ({@link BodySlabs#lease}, every byte of it, since a slab used again holds earlier bodies); null if either needs
     * escaping. The caller releases the lease once the body is no longer read.
     */
    static BodySlabs.Lease idBody(String pathId, String id, FieldsJson fields) {
        int length = PATH_ID.length + pathId.length() + ID.length + id.length()
                     + (fields == null ? END.length : FIELDS.length + fields.length() + 1);
        BodySlabs.Lease lease = BodySlabs.lease(length);
        ByteBuffer buffer = lease.buffer();
        byte[] body = buffer.array();
        int at = put(PATH_ID, body, buffer.position());
        at = putPlain(pathId, body, at);
        if (at >= 0) {
            at = put(ID, body, at);
            at = putPlain(id, body, at);
        }
        if (at < 0) {
            lease.release();
            return null;
        }
        if (fields == null) {
            at = put(END, body, at);
        }
        else {
            at = put(FIELDS, body, at);
            System.arraycopy(fields.bytes(), fields.offset(), body, at, fields.length());
            body[at + fields.length()] = '}';
            at += fields.length() + 1;
        }
        if (at != buffer.limit()) { // never: the length is counted above; bytes left unwritten would be another body's
            lease.release();
            throw new IllegalStateException("Wrote " + (at - buffer.position()) + " bytes of a " + length + "-byte body");
        }
        return lease;
    }

    private static int put(byte[] bytes, byte[] body, int at) {
        System.arraycopy(bytes, 0, body, at, bytes.length);
        return at + bytes.length;
    }

    /**
     * Copies {@code text} into {@code body} from {@code at} and returns where it ends, if jackson-core writes it as it
     * is: printable ASCII (and DEL), no {@code "} or {@code \}; else -1. One pass that checks as it copies: checking
     * first and copying after was ~2% of the samples of the threads answering an embedded feed (bench/store.sh, JFR).
     */
    private static int putPlain(String text, byte[] body, int at) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7f || c == '"' || c == '\\')
                return -1;
            body[at + i] = (byte) c;
        }
        return at + text.length();
    }

    private static byte[] bytes(String ascii) {
        return ascii.getBytes(StandardCharsets.US_ASCII);
    }

}
