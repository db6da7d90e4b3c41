package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import io.sluice.container.JsonTree;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.CompletionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The one exception-to-answer mapping of /document/v1. */
class FailuresTest {

    private static final String PATH = "/document/v1/ns/music/docid/a";

    @Test
    void documentException_is400WithItsMessage_evenWrapped() {
        DocumentResponses.Reply reply = Failures.reply(PATH, new CompletionException(new io.sluice.document.IllegalDocumentIdException("bad field")), "testing");
        assertEquals(400, reply.status());
        assertEquals(Map.of("pathId", PATH, "message", "bad field"), JsonTree.parse(text(reply)));
    }

    @Test
    void httpStatusException_keepsItsStatusAndMessage() {
        DocumentResponses.Reply reply = Failures.reply(PATH, new HttpStatusException(429, "busy"), "testing");
        assertEquals(429, reply.status());
        assertEquals(Map.of("pathId", PATH, "message", "busy"), JsonTree.parse(text(reply)));
    }

    @Test
    void unexpectedException_is500_neverA400() {
        assertNull(Failures.expected(new IllegalStateException("bug")));
        assertEquals(500, Failures.reply(PATH, new IllegalStateException("bug"), "testing").status());
        assertEquals(500, Failures.reply(PATH, new CompletionException(new NullPointerException()), "testing").status());
        assertEquals(500, Failures.reply(PATH, new AssertionError("bug"), "testing").status());
    }

    private static String text(DocumentResponses.Reply reply) {
        return new String(reply.bytes(), java.nio.charset.StandardCharsets.UTF_8);
    }

}
