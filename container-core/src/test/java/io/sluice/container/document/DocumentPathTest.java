package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Path matching and id building of spec §1.1. */
class DocumentPathTest {

    @Test
    void root_withAndWithoutSlash() {
        assertEquals(Route.ROOT, DocumentPath.parse("/document/v1").route());
        assertEquals(Route.ROOT, DocumentPath.parse("/document/v1/").route());
    }

    @Test
    void numberWithoutRest_isSelection() {
        DocumentPath path = DocumentPath.parse("/document/v1/ns/music/number/123");
        assertEquals(Route.NUMBER_SELECTION, path.route());
        assertEquals(OptionalLong.of(123), path.number());
    }

    @Test
    void docidWithTrailingSlash_isSelection() {
        assertEquals(Route.DOCID_SELECTION, DocumentPath.parse("/document/v1/ns/music/docid/").route());
    }

    @Test
    void segments_formDecodedThenJoined() {
        DocumentPath path = DocumentPath.parse("/document/v1/n+s/music/docid/a+b/c%2Fd");
        assertEquals(Optional.of("n s"), path.namespace());
        assertEquals("id:n s:music::a b/c/d", path.documentId().toString());
    }

    @Test
    void group_buildsGroupId() {
        assertEquals("id:ns:music:g=it's:x", DocumentPath.parse("/document/v1/ns/music/group/it's/x").documentId().toString());
    }

    @Test
    void dotSegment_rejected() {
        HttpStatusException e = assertThrows(HttpStatusException.class, () -> DocumentPath.parse("/document/v1/ns/music/docid/.."));
        assertEquals(400, e.status());
    }

    @Test
    void groupWithControlCharacter_rejected() {
        HttpStatusException e = assertThrows(HttpStatusException.class, () -> DocumentPath.parse("/document/v1/ns/music/group/a%01b/x"));
        assertEquals("Illegal code point U0001 in group", e.getMessage());
    }

    @Test
    void numberAboveSignedRange_failsAsIdNotAsPath() {
        DocumentPath path = DocumentPath.parse("/document/v1/ns/music/number/18446744073709551615/x");
        var invalid = assertThrows(io.sluice.document.DocumentException.class, path::documentId);
        assertEquals(400, Failures.expected(invalid).status()); // the client's bad input, whoever catches it
    }

    @Test
    void otherPrefix_is404() {
        assertEquals(404, assertThrows(HttpStatusException.class, () -> DocumentPath.parse("/document/v2/")).status());
        assertEquals(404, assertThrows(HttpStatusException.class, () -> DocumentPath.parse("/document/v1/ns/music")).status());
    }

    @Test
    void number_buildsNumberId() {
        assertEquals("id:ns:music:n=123:a/b",
                     DocumentPath.parse("/document/v1/ns/music/number/123/a/b").documentId().toString());
    }

    @Test
    void documentId_sameAsParsedText() {
        for (String path : new String[] { "/document/v1/ns/music/docid/a:b/c", "/document/v1/n%3As/music/docid/x",
                                          "/document/v1/ns/mu%3Asic/docid/x", "/document/v1/ns/music/group/a%2Cb/x",
                                          "/document/v1/ns/music/group/a=b/x",
                                          "/document/v1/ns/music/docid/%C3%A6%2F%2B" }) {
            DocumentPath parsed = DocumentPath.parse(path);
            String text = "id:" + parsed.namespace().get() + ":" + parsed.documentType().get() + ":"
                          + parsed.group().map(g -> "g=" + g).orElse("") + ":" + parsed.userSpecific().get();
            assertEquals(outcome(() -> io.sluice.document.DocumentId.of(text).toString()),
                         outcome(() -> parsed.documentId().toString()), path);
        }
    }

    /** The text, or the message of the exception thrown. */
    private static String outcome(java.util.function.Supplier<String> text) {
        try {
            return text.get();
        }
        catch (RuntimeException e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }

    @Test
    void emptySegment_rejectedAnywhere() {
        for (String path : new String[] { "/document/v1//", "/document/v1/ns//music/docid/x",
                                          "/document/v1/ns/music/docid/a//b", "/document/v1/ns/music/docid/%2E",
                                          "/document/v1x//" })
            assertEquals(400, assertThrows(HttpStatusException.class, () -> DocumentPath.parse(path)).status(), path);
    }

    @Test
    void trailingSlashAfterDocument_ignored() {
        assertEquals("id:ns:music::a/b",
                     DocumentPath.parse("/document/v1/ns/music/docid/a/b/").documentId().toString());
    }

    @Test
    void encodedV1_is404() {
        assertEquals(404, assertThrows(HttpStatusException.class,
                                       () -> DocumentPath.parse("/document/v1%41/ns/music/docid/x")).status());
    }

}
