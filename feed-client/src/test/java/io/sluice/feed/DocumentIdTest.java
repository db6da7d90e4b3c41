package io.sluice.feed;

import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DocumentIdTest {

    @Test
    void plainId_keepsUserSpecificWithColonsAndSlashes() {
        DocumentId id = DocumentId.of("id:ns:music::a:b/c");
        assertEquals("ns", id.namespace());
        assertEquals("music", id.documentType());
        assertEquals("a:b/c", id.userSpecific());
        assertEquals("id:ns:music::a:b/c", id.toString());
    }

    @Test
    void numberAndGroup_areParsed() {
        assertEquals(OptionalLong.of(18), DocumentId.of("id:ns:music:n=18:x").number());
        assertEquals(Optional.of("yahoo.com"), DocumentId.of("id:ns:music:g=yahoo.com:x").group());
    }

    @Test
    void badIds_nameTheId() {
        assertEquals("Document id must start with 'id:', but was 'doc:ns:t::a'",
                     assertThrows(IllegalArgumentException.class, () -> DocumentId.of("doc:ns:t::a")).getMessage());
        assertEquals("Illegal key/value part 'x=1' in document id 'id:ns:t:x=1:a'; expected n=<number> or g=<group>",
                     assertThrows(IllegalArgumentException.class, () -> DocumentId.of("id:ns:t:x=1:a")).getMessage());
        assertEquals("User-specific part must be non-empty in document id 'id:ns:t::'",
                     assertThrows(IllegalArgumentException.class, () -> DocumentId.of("id:ns:t::")).getMessage());
    }

    @Test
    void equality_isByIdString() {
        assertEquals(DocumentId.of("ns", "t", "a"), DocumentId.of("id:ns:t::a"));
        assertEquals(DocumentId.of("id:ns:t::a").hashCode(), DocumentId.of("ns", "t", "a").hashCode());
    }

}
