package io.sluice.container.document;

import io.sluice.config.VisitLimits;
import io.sluice.container.HttpStatusException;
import org.eclipse.jetty.http.HttpStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The visit slots of {@code /document/v1}: each visit (and copy, update-where, delete-where page) holds one from its
 * start until its response is sent or fails, since it holds a backend iterator and response buffers all that time.
 *
 * <p>Shared fairly: besides {@link VisitLimits#maxVisits} in all, one client holds at most
 * {@link VisitLimits#maxPerClient} and one connection at most {@link VisitLimits#maxPerConnection}, so a client that
 * opens visits and never reads them leaves the other slots to everyone else; its own excess visits get 429 saying
 * which limit they met. A client is its {@code <clients>} identity when access control names one, else its address
 * (on loopback or behind a proxy every client has the same one: there, {@code <clients>} tells them apart).
 *
 * <p>A visit whose response has waited {@link VisitLimits#stallTimeout} for its client to take one write is ended
 * ({@link #sweep}, run every quarter of that time by the handler): its exchange is failed, which resets the HTTP/2
 * stream or closes the HTTP/1.1 connection, so the slot and what the visit holds are released. That counts in
 * {@link #stalledVisits} and is logged at most once a minute. A visit that is slow for its backend's sake is never
 * stalled: only a write that does not complete counts.
 *
 * <p>Admission is rare (one per visit), so it takes a lock; a write's start and end are a volatile write each.
 */
final class VisitSlots {

    private static final Logger log = LoggerFactory.getLogger(VisitSlots.class);
    private static final long LOG_INTERVAL_MILLIS = Duration.ofMinutes(1).toMillis();

    private final VisitLimits limits;
    private final Clock clock;
    private final long stallMillis;
    private final Consumer<String> warning;
    private final Map<Object, Integer> held = new HashMap<>();   // per client and per connection key; guarded by this
    private final Set<Slot> running = new LinkedHashSet<>();     // guarded by this
    private long stalled = 0;                                    // guarded by this
    private long refusedPerClient = 0;                           // guarded by this
    private long loggedAtMillis = Long.MIN_VALUE;                // guarded by this
    private long unloggedStalls = 0;                             // guarded by this

    VisitSlots(VisitLimits limits, Clock clock) {
        this(limits, clock, log::warn);
    }

    /** Slots that report ended visits to {@code warning} instead of the log. */
    VisitSlots(VisitLimits limits, Clock clock, Consumer<String> warning) {
        this.limits = Objects.requireNonNull(limits, "limits");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.stallMillis = limits.stallTimeout().toMillis();
        this.warning = Objects.requireNonNull(warning, "warning");
    }

    /** Who asks for a slot: the connection (any object identifying it) and the client (identity or address). */
    record Claimant(Object connection, String client) {
        Claimant {
            Objects.requireNonNull(connection, "connection");
            Objects.requireNonNull(client, "client");
        }
    }

    /**
     * Takes a slot for {@code claimant}, to be ended with {@code end} if its client stops reading; release it with
     * {@link Slot#release} when the visit's response is done.
     *
     * @throws HttpStatusException 429 with a message naming the limit met
     */
    synchronized Slot take(Claimant claimant, Consumer<Throwable> end) {
        if (running.size() >= limits.maxVisits())
            throw overload(limits.maxVisits() + " visits already running");
        String client = "client " + claimant.client();
        if (held.getOrDefault(client, 0) >= limits.maxPerClient()) {
            refusedPerClient++;
            throw overload("per-client limit reached: " + claimant.client() + " already runs " + limits.maxPerClient()
                           + " of the " + limits.maxVisits() + " visits that may run at once");
        }
        ConnectionKey connection = new ConnectionKey(claimant.connection());
        if (held.getOrDefault(connection, 0) >= limits.maxPerConnection()) {
            refusedPerClient++;
            throw overload("per-client limit reached: this connection already runs " + limits.maxPerConnection()
                           + " of the " + limits.maxVisits() + " visits that may run at once");
        }
        held.merge(client, 1, Integer::sum);
        held.merge(connection, 1, Integer::sum);
        Slot slot = new Slot(client, connection, claimant.client(), end);
        running.add(slot);
        return slot;
    }

    private static HttpStatusException overload(String reason) {
        return new HttpStatusException(HttpStatus.TOO_MANY_REQUESTS_429, "Rejecting execution due to overload: " + reason);
    }

    private synchronized boolean free(Slot slot) {
        if ( ! running.remove(slot))
            return false;
        held.computeIfPresent(slot.clientKey, (key, count) -> count == 1 ? null : count - 1);
        held.computeIfPresent(slot.connectionKey, (key, count) -> count == 1 ? null : count - 1);
        return true;
    }

    /**
     * Ends every visit whose response has waited at least the stall timeout for a write to complete; returns how many.
     * Ending frees the slot at once, whatever the exchange then does.
     */
    int sweep() {
        long now = clock.millis();
        List<Slot> stalledNow = new ArrayList<>();
        synchronized (this) {
            for (Slot slot : running) {
                long since = slot.writingSince;
                if (since != Slot.IDLE && now - since >= stallMillis)
                    stalledNow.add(slot);
            }
        }
        int ended = 0;
        for (Slot slot : stalledNow) {
            if ( ! free(slot))
                continue; // released meanwhile
            ended++;
            TimeoutException cause = new TimeoutException("Visit ended: its client took no data for "
                                                          + limits.stallTimeout().toMillis() + " ms");
            slot.end.accept(cause);
        }
        if (ended > 0)
            logStalls(ended, stalledNow.get(stalledNow.size() - 1).client, now);
        return ended;
    }

    private void logStalls(int ended, String lastClient, long now) {
        long report, total;
        synchronized (this) {
            stalled += ended;
            unloggedStalls += ended;
            if (loggedAtMillis != Long.MIN_VALUE && now - loggedAtMillis < LOG_INTERVAL_MILLIS)
                return;
            loggedAtMillis = now;
            report = unloggedStalls;
            unloggedStalls = 0;
            total = stalled;
        }
        warning.accept("Ended " + report + " visit(s) whose clients took no data for "
                       + limits.stallTimeout().toMillis() / 1000.0 + " s (the last from " + lastClient
                       + "), freeing their slots; " + total + " in all so far (httpapi_stalled_visits); "
                       + "logged at most once a minute");
    }

    /** Visits running now. */
    synchronized int running() {
        return running.size();
    }

    /** Visits ended because their clients took no data for the stall timeout, since start. */
    synchronized long stalledVisits() {
        return stalled;
    }

    /** Visits refused because their client or connection held its share of the slots, since start. */
    synchronized long refusedPerClient() {
        return refusedPerClient;
    }

    /** The limits these slots keep. */
    VisitLimits limits() {
        return limits;
    }

    /** A connection as a key: by identity, whatever its class's equals says. */
    private record ConnectionKey(Object connection) {
        @Override
        public boolean equals(Object other) {
            return other instanceof ConnectionKey key && key.connection == connection;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(connection);
        }
    }

    /** One running visit's slot; it watches the visit's response writes for a client that stopped reading. */
    final class Slot implements WriteWatch {

        private static final long IDLE = Long.MIN_VALUE;

        private final String clientKey;
        private final ConnectionKey connectionKey;
        private final String client;
        private final Consumer<Throwable> end;
        private volatile long writingSince = IDLE;

        private Slot(String clientKey, ConnectionKey connectionKey, String client, Consumer<Throwable> end) {
            this.clientKey = clientKey;
            this.connectionKey = connectionKey;
            this.client = client;
            this.end = end;
        }

        @Override
        public void writing() {
            writingSince = clock.millis();
        }

        @Override
        public void written() {
            writingSince = IDLE;
        }

        /** Frees the slot; later calls, and a call after the visit was ended as stalled, do nothing. */
        void release() {
            free(this);
        }

    }

}
