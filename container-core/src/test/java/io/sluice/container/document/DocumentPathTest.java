package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.junit.jupiter.api.Test;

import java.util.List;
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
    void namespaceAndType_ofEachPath_whateverWasParsedBefore() {
        // The parser keeps the last namespace and type to use again: each path must still get its own.
        String[][] paths = { { "/document/v1/ns/music/docid/a", "ns", "music", "id:ns:music::a" },
                             { "/document/v1/ns/music/docid/b", "ns", "music", "id:ns:music::b" },
                             { "/document/v1/n+s/music/docid/c", "n s", "music", "id:n s:music::c" },
                             { "/document/v1/n%20s/mus%69c/docid/d", "n s", "music", "id:n s:music::d" },
                             { "/document/v1/nsx/musi/docid/e", "nsx", "musi", "id:nsx:musi::e" },
                             { "/document/v1/ns/music/docid/f", "ns", "music", "id:ns:music::f" },
                             { "/document/v1/music/ns/docid/g", "music", "ns", "id:music:ns::g" } };
        for (String[] path : paths) {
            DocumentPath parsed = DocumentPath.parse(path[0]);
            assertEquals(Optional.of(path[1]), parsed.namespace(), path[0]);
            assertEquals(Optional.of(path[2]), parsed.documentType(), path[0]);
            assertEquals(path[3], parsed.documentId().toString(), path[0]);
        }
    }

    @Test
    void routeKind_matchedDecoded_andOnlyWhole() {
        assertEquals(Route.DOCID_DOCUMENT, DocumentPath.parse("/document/v1/ns/music/doc%69d/a").route());
        assertEquals(Route.GROUP_DOCUMENT, DocumentPath.parse("/document/v1/ns/music/group/g/docid").route());
        for (String path : List.of("/document/v1/ns/music/docidx/a", "/document/v1/ns/music/doci/a",
                                   "/document/v1/ns/music/docid+/a", "/document/v1/ns/music/Docid/a"))
            assertEquals(404, assertThrows(HttpStatusException.class, () -> DocumentPath.parse(path)).status(), path);
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
