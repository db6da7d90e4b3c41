package io.sluice.container.document;

import io.sluice.container.Json;
import io.sluice.document.json.FieldsJson;
import io.sluice.http.common.BodySlabs;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

class PlainJsonTest {

    private static final List<String> PLAIN = List.of("", "/document/v1/ns/music/docid/a", "id:ns:music::a%2Fb+c",
                                                      "id:ns:music:n=12:x/y?z=<>&'`~!@#$%^*()[]{}|;,.", "del\u007f");
    private static final List<String> ESCAPED = List.of("quote\"", "back\\slash", "tab\t", "nul\u0000", "new\nline",
                                                        "\u00e6\u00f8\u00e5", "snow\u2603", "\ud83d\ude00");

    @Test
    void plainTexts_areWrittenAsJacksonWritesThem() {
        FieldsJson fields = new FieldsJson("xx{\"title\":\"A \\\"song\\\"\",\"year\":1}yy".getBytes(StandardCharsets.UTF_8), 2, 31);
        for (String pathId : PLAIN)
            for (String id : PLAIN) {
                BodySlabs.Lease plain = PlainJson.idBody(pathId, id, null);
                assertNotNull(plain, pathId + " " + id);
                assertArrayEquals(jackson(pathId, id, null), bytes(plain.buffer()), pathId + " " + id);
                assertArrayEquals(jackson(pathId, id, fields), bytes(PlainJson.idBody(pathId, id, fields).buffer()),
                                  pathId + " " + id);
            }
    }

    @Test
    void textsThatJacksonEscapesOrEncodes_areLeftToIt() {
        for (String text : ESCAPED) {
            assertNull(PlainJson.idBody(text, "id:ns:music::a", null), text);
            assertNull(PlainJson.idBody("/document/v1/ns/music/docid/a", text, null), text);
        }
    }

    @Test
    void smallBodies_areWrittenIntoASlab_largeOnesIntoTheirOwnBuffer() {
        ByteBuffer small = PlainJson.idBody("/document/v1/ns/music/docid/a", "id:ns:music::a", null).buffer();
        assertEquals(BodySlabs.SLAB_BYTES, small.capacity()); // so Jetty copies it next to the frame headers
        String large = "x".repeat(BodySlabs.MAX_COPIED_BYTES);
        ByteBuffer own = PlainJson.idBody(large, "id:ns:music::a", null).buffer();
        assertEquals(own.remaining(), own.capacity());
        assertArrayEquals(jackson(large, "id:ns:music::a", null), bytes(own));
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    private static byte[] jackson(String pathId, String id, FieldsJson fields) {
        return Json.write(json -> {
            json.writeStartObject();
            json.writeStringField("pathId", pathId);
            json.writeStringField("id", id);
            if (fields != null) {
                json.writeFieldName("fields");
                json.writeRawValue(fields.toString());
            }
            json.writeEndObject();
        });
    }

}
