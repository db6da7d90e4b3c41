package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AcceptHeaderTest {

    @Test
    void missingOrWildcard_isJson() {
        assertFalse(AcceptHeader.prefersJsonLines(null));
        assertFalse(AcceptHeader.prefersJsonLines("*/*"));
        assertFalse(AcceptHeader.prefersJsonLines("application/*"));
    }

    @Test
    void jsonLinesAlone_isJsonLines() {
        assertTrue(AcceptHeader.prefersJsonLines("application/jsonl"));
    }

    @Test
    void tieWithJson_isJsonLines() {
        assertTrue(AcceptHeader.prefersJsonLines("application/json, application/jsonl"));
    }

    @Test
    void lowerQualityThanJson_isJson() {
        assertFalse(AcceptHeader.prefersJsonLines("application/jsonl; q=0.9, application/json"));
    }

    @Test
    void higherQualityThanJson_isJsonLines() {
        assertTrue(AcceptHeader.prefersJsonLines("application/json;q=0.5, application/jsonl;q=0.8, text/plain;q=0.1"));
    }

    @Test
    void zeroQuality_isJson() {
        assertFalse(AcceptHeader.prefersJsonLines("application/jsonl;q=0"));
    }

    @Test
    void mediaRangeWithoutSlash_isUnparseable() {
        HttpStatusException e = assertThrows(HttpStatusException.class, () -> AcceptHeader.prefersJsonLines("jsonl"));
        assertEquals(400, e.status());
    }

    @Test
    void qualityOutOfRange_isUnparseable() {
        assertThrows(HttpStatusException.class, () -> AcceptHeader.prefersJsonLines("application/jsonl;q=2"));
    }

}
