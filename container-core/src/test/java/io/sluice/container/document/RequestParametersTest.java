package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parameter rules of spec §1.2. */
class RequestParametersTest {

    private static HttpStatusException badRequest(org.junit.jupiter.api.function.Executable executable) {
        HttpStatusException e = assertThrows(HttpStatusException.class, executable);
        assertEquals(400, e.status());
        return e;
    }

    @Test
    void repeated_lastValueWins() {
        assertEquals(Optional.of("b"), RequestParameters.parse("route=a&route=b").string("route"));
    }

    @Test
    void names_areCaseSensitive() {
        assertEquals(Optional.empty(), RequestParameters.parse("TraceLevel=3").integer("tracelevel"));
    }

    @Test
    void values_areFormDecoded() {
        assertEquals(Optional.of("music.year == 1 and a+b"),
                     RequestParameters.parse("condition=music.year+%3D%3D+1+and+a%2Bb").string("condition"));
    }

    @Test
    void emptyValue_isRejectedWhenRead() {
        RequestParameters parameters = RequestParameters.parse("route=&unused=");
        assertTrue(parameters.has("route"));
        assertEquals("Expected non-empty value for request property 'route'", badRequest(() -> parameters.string("route")).getMessage());
    }

    @Test
    void booleans_trueInAnyCaseElseFalse() {
        assertEquals(Optional.of(true), RequestParameters.parse("create=TRUE").bool("create"));
        assertEquals(Optional.of(false), RequestParameters.parse("create=yes").bool("create"));
    }

    @Test
    void integers_badValueNamesInput() {
        assertEquals("For input string: \"x\"", badRequest(() -> RequestParameters.parse("tracelevel=x").integer("tracelevel")).getMessage());
    }

    @Test
    void unsignedLongs_acceptFullRange() {
        assertEquals(OptionalLong.of(-1), RequestParameters.parse("toTimestamp=18446744073709551615").unsignedLong("toTimestamp"));
    }

    @Test
    void durations_unitsAsVespa() {
        assertEquals(Duration.ofMillis(1500), RequestParameters.parseDuration("1500ms"));
        assertEquals(Duration.ofMillis(2500), RequestParameters.parseDuration("2.5s"));
        assertEquals(Duration.ofSeconds(3), RequestParameters.parseDuration("3"));
        assertEquals(Duration.ofSeconds(1000), RequestParameters.parseDuration("1ks"));
        assertEquals(Duration.ofNanos(2000), RequestParameters.parseDuration("2µs"));
        assertEquals(Duration.ofSeconds(1), RequestParameters.parseDuration("1e1s"));
        assertEquals(Duration.ofSeconds(4), RequestParameters.parseDuration("4 minutes"));
    }

    @Test
    void durations_nonNumericStart_rejected() {
        assertTrue(badRequest(() -> RequestParameters.parseDuration("ms")).getMessage().startsWith("Invalid duration 'ms'"));
    }

    @Test
    void disallow_rejectsEvenEmpty() {
        assertEquals("May not specify 'dryRun' at '/document/v1/'",
                     badRequest(() -> RequestParameters.parse("dryRun=").disallow("/document/v1/", "dryRun")).getMessage());
    }

    @Test
    void require_namesMissingParameter() {
        assertEquals("Must specify 'cluster' at '/document/v1/'",
                     badRequest(() -> RequestParameters.parse("").require("/document/v1/", "cluster")).getMessage());
    }

    @Test
    void unknownParameters_ignored() {
        assertFalse(RequestParameters.parse("whatever=1").has("timeout"));
    }

}
