package io.sluice.container.document;

import com.fasterxml.jackson.core.JsonGenerator;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What happened to one operation, for responses to requests with {@code tracelevel > 0}: timestamped notes of what the
 * handler actually did (queued, dispatched to which cluster, the backend's outcome). Rendered as Vespa's trace array
 * {@code [{"message": ...}, ...]}. Thread-safe; a level of 0 records nothing.
 */
public final class Trace {

    private final int level;
    private final Clock clock;
    private final Instant start;
    private final List<String> messages = new ArrayList<>();

    /** A trace at {@code level} of a request that arrived at {@code start}, by {@code clock}. */
    public Trace(int level, Clock clock, Instant start) {
        this.level = level;
        this.clock = clock;
        this.start = start;
    }

    /** A trace that records nothing: one can serve every request of level 0, since it never changes. */
    public static Trace off(Clock clock) {
        return new Trace(0, clock, clock.instant());
    }

    /** Whether anything is recorded at all. */
    public boolean isEnabled() {
        return level > 0;
    }

    /** The requested level, 0–9. */
    public int level() {
        return level;
    }

    /**
     * Records {@code message}, prefixed with the milliseconds since the request arrived, if the level is at least
     * {@code atLevel}; never at level 0, whose trace is shared by the requests without one.
     */
    public void note(int atLevel, String message) {
        if (level == 0 || level < atLevel)
            return;
        long millis = Duration.between(start, clock.instant()).toMillis();
        synchronized (messages) {
            messages.add("[" + millis + " ms] " + message);
        }
    }

    /** Whether there is anything to render. */
    public boolean isEmpty() {
        synchronized (messages) {
            return messages.isEmpty();
        }
    }

    /** Writes {@code "trace": [...]} if anything was recorded. */
    public void write(JsonGenerator json) throws IOException {
        List<String> copy;
        synchronized (messages) {
            copy = List.copyOf(messages);
        }
        if (copy.isEmpty())
            return;
        json.writeArrayFieldStart("trace");
        for (String message : copy) {
            json.writeStartObject();
            json.writeStringField("message", message);
            json.writeEndObject();
        }
        json.writeEndArray();
    }

}
