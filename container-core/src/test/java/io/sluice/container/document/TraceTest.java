package io.sluice.container.document;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.container.ManualClock;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TraceTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-12-01T00:00:00Z"));

    @Test
    void levelZero_recordsNothing_atAnyLevel() throws IOException {
        // The handler gives one level-0 trace to every request without a tracelevel, so it must never change.
        Trace off = Trace.off(clock);
        off.note(0, "at zero");
        off.note(1, "at one");
        assertFalse(off.isEnabled());
        assertTrue(off.isEmpty());
        assertEquals("{}", rendered(off));
    }

    @Test
    void notes_atOrBelowTheLevel_withTheirTime() throws IOException {
        Trace trace = new Trace(2, clock, clock.instant());
        clock.advance(Duration.ofMillis(7));
        trace.note(1, "one");
        trace.note(2, "two");
        trace.note(3, "three");
        assertEquals("{\"trace\":[{\"message\":\"[7 ms] one\"},{\"message\":\"[7 ms] two\"}]}", rendered(trace));
    }

    private static String rendered(Trace trace) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(out)) {
            json.writeStartObject();
            trace.write(json);
            json.writeEndObject();
        }
        return out.toString();
    }

}
