package io.sluice.container;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BindingPatternTest {

    @Test
    void parse_hostPortAndPath_areSeparated() {
        BindingPattern binding = BindingPattern.parse("http://localhost:8080/my/*");
        assertEquals(new BindingPattern("http://localhost:8080/my/*", "localhost", OptionalInt.of(8080), "/my/*"), binding);
    }

    @Test
    void parse_notAUri_namesThePattern() {
        var e = assertThrows(IllegalArgumentException.class, () -> BindingPattern.parse("my/path"));
        assertEquals("Binding 'my/path' is not of the form scheme://host[:port]/path", e.getMessage());
    }

    @Test
    void parse_foreignScheme_isRejected() {
        assertThrows(IllegalArgumentException.class, () -> BindingPattern.parse("ftp://*/x"));
    }

    @Test
    void matches_trailingGlob_matchesEmptyAndDeepPaths() {
        BindingPattern binding = BindingPattern.parse("http://*/document/v1/*");
        assertTrue(binding.matches("localhost", 80, "/document/v1/"));
        assertTrue(binding.matches("localhost", 80, "/document/v1/ns/music/docid/a"));
        assertFalse(binding.matches("localhost", 80, "/document/v2/"));
    }

    @Test
    void matches_explicitPort_requiresThatPort() {
        BindingPattern binding = BindingPattern.parse("http://*:4080/x");
        assertTrue(binding.matches("h", 4080, "/x"));
        assertFalse(binding.matches("h", 4081, "/x"));
    }

    @Test
    void matches_exactPath_doesNotMatchLonger() {
        assertFalse(BindingPattern.parse("http://*/").matches("h", 1, "/status.html"));
    }

    @Test
    void glob_innerStar_backtracks() {
        assertTrue(BindingPattern.glob("/a*b*c", "/axxbyybc"));
        assertFalse(BindingPattern.glob("/a*b*c", "/axxbyyb"));
    }

    @Test
    void specificFirst_portThenHostThenLiteralPrefix() {
        var bindings = new ArrayList<>(List.of(BindingPattern.parse("http://*/*"),
                                               BindingPattern.parse("http://*/my/*"),
                                               BindingPattern.parse("http://host/*"),
                                               BindingPattern.parse("http://*:8080/*")));
        bindings.sort(BindingPattern.SPECIFIC_FIRST);
        assertEquals(List.of("http://*:8080/*", "http://host/*", "http://*/my/*", "http://*/*"),
                     bindings.stream().map(BindingPattern::pattern).toList());
    }

}
