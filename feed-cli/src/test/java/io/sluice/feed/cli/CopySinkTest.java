package io.sluice.feed.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CopySinkTest {

    private static CopySink.Put put(String line) throws IOException {
        return CopySink.Put.of(line.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void visitedLine_becomesItsIdAndAPutBodyOfItsFields() throws IOException {
        assertEquals(new CopySink.Put("id:ns:music::a", "{\"fields\":{\"title\":\"\u00e6 \\\"q\\\"\",\"n\":[1,{\"x\":2}]}}"),
                     put("{\"id\":\"id:ns:music::a\",\"fields\":{\"title\":\"\u00e6 \\\"q\\\"\",\"n\":[1,{\"x\":2}]}}"));
    }

    @Test
    void putKey_andSpaces_andNoFields_areUnderstood() throws IOException {
        assertEquals(new CopySink.Put("id:ns:music::b", "{\"fields\" : {}}"), put("{ \"put\" : \"id:ns:music::b\", \"fields\" : {}}"));
        assertEquals(new CopySink.Put("id:ns:music::c", "{\"fields\":{}}"), put("{\"id\":\"id:ns:music::c\"}"));
    }

    @Test
    void lineWithoutId_isAnError() {
        IOException e = assertThrows(IOException.class, () -> put("{\"fields\":{}}"));
        assertEquals("A visited document without an id: {\"fields\":{}}", e.getMessage());
    }

}
