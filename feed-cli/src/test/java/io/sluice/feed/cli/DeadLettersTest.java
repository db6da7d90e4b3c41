package io.sluice.feed.cli;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DeadLettersTest {

    private static String line(String source, OptionalInt status, String message) {
        return new String(DeadLetters.line(source.getBytes(StandardCharsets.UTF_8), status, message), StandardCharsets.UTF_8);
    }

    @Test
    void line_addsFailureFieldBeforeTheClosingBrace() {
        assertEquals("{\"put\":\"id:ns:t::a\",\"fields\":{\"x\":1},\"failure\":{\"status\":400,\"message\":\"bad \\\"x\\\"\"}}\n",
                     line("{\"put\":\"id:ns:t::a\",\"fields\":{\"x\":1}}", OptionalInt.of(400), "bad \"x\""));
    }

    @Test
    void line_joinsAPrettyPrintedObjectIntoOneLine() {
        assertEquals("{   \"remove\": \"id:ns:t::a\",\"failure\":{\"status\":null,\"message\":\"timed out\"}}\n",
                     line("{\n  \"remove\": \"id:ns:t::a\"\r\n}", OptionalInt.empty(), "timed out"));
    }

}
