package io.sluice.http;

import io.sluice.content.CoalescedWrites;
import org.eclipse.jetty.io.ByteArrayEndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The byte budget per wake-up of an HTTP/2 connection's end point, and its coalesced writes. */
class FairEndPointTest {

    @Test
    void fill_stopsAfterOneRound_untilTheConnectionAsksToBeWokenAgain() throws Exception {
        ByteArrayEndPoint network = new ByteArrayEndPoint();
        network.addInput(ByteBuffer.wrap(new byte[3 * FairEndPoint.ROUND_BYTES]));
        FairEndPoint fair = new FairEndPoint(network, false);
        assertSame(network, fair.unwrap());

        assertEquals(FairEndPoint.ROUND_BYTES, drain(fair));
        assertEquals(0, fair.fill(BufferUtil.allocate(1024)), "nothing more this round, though bytes are waiting");

        fair.fillInterested(Callback.NOOP); // bytes are waiting: the end point is fillable at once
        assertEquals(FairEndPoint.ROUND_BYTES, drain(fair));
        fair.tryFillInterested(Callback.NOOP); // a new round, whether or not interest was already registered
        assertEquals(FairEndPoint.ROUND_BYTES, drain(fair));
    }

    @Test
    void write_inACoalescingTask_leavesWhenTheTaskEnds_inOrder() {
        ByteArrayEndPoint network = new ByteArrayEndPoint();
        FairEndPoint fair = new FairEndPoint(network, false);
        List<String> events = new ArrayList<>();

        CoalescedWrites.run(() -> {
            fair.write(Callback.from(() -> events.add("first written")), BufferUtil.toBuffer("one "));
            events.add("task goes on, output: '" + network.getOutputString() + "'");
        });
        fair.write(Callback.from(() -> events.add("second written")), BufferUtil.toBuffer("two "));
        CoalescedWrites.run(() -> {
            fair.write(false, BufferUtil.toBuffer("three"), Callback.from(() -> events.add("third written")));
            events.add("task goes on, output: '" + network.getOutputString() + "'");
        });

        assertEquals(List.of("task goes on, output: ''", "first written", "second written",
                             "task goes on, output: 'one two '", "third written"), events);
        assertEquals("one two three", network.getOutputString());
    }

    @Test
    void write_deferredByATaskThatThrows_stillLeaves() {
        ByteArrayEndPoint network = new ByteArrayEndPoint();
        FairEndPoint fair = new FairEndPoint(network, false);

        assertThrows(IllegalStateException.class, () -> CoalescedWrites.run(() -> {
            fair.write(Callback.NOOP, BufferUtil.toBuffer("sent"));
            throw new IllegalStateException("boom");
        }));

        assertEquals("sent", network.getOutputString());
        assertFalse(CoalescedWrites.active());
    }

    @Test
    void deferredWrite_thatCannotStart_failsItsCallback_insteadOfThrowingAtTheTaskEnd() {
        ByteArrayEndPoint network = new ByteArrayEndPoint(new byte[0], 1, false); // room for one byte, never more
        FairEndPoint fair = new FairEndPoint(network, false);
        AtomicReference<Throwable> failure = new AtomicReference<>();

        CoalescedWrites.run(() -> {
            fair.write(Callback.NOOP, BufferUtil.toBuffer("abc")); // stays pending: two bytes do not fit
            fair.write(Callback.from(() -> { }, failure::set), BufferUtil.toBuffer("d"));
        });

        assertTrue(failure.get() instanceof WritePendingException, String.valueOf(failure.get()));
    }

    @Test
    void roundOfReads_whenCoalescing_writesWhenItEnds() {
        assertEquals(List.of("round goes on, output: ''", "written", "after the round, output: 'answer'"), round(true));
        assertFalse(CoalescedWrites.active());
    }

    @Test
    void roundOfReads_whenNotCoalescing_writesAtOnce() {
        assertEquals(List.of("written", "round goes on, output: 'answer'", "after the round, output: 'answer'"),
                     round(false));
    }

    /** What happens when a round of reads on an end point that coalesces rounds, or not, writes an answer. */
    private static List<String> round(boolean coalesce) {
        List<Callback> registered = new ArrayList<>();
        ByteArrayEndPoint network = registering(registered);
        FairEndPoint fair = new FairEndPoint(network, coalesce);
        List<String> events = new ArrayList<>();
        fair.fillInterested(Callback.from(() -> {
            fair.write(Callback.from(() -> events.add("written")), BufferUtil.toBuffer("answer"));
            events.add("round goes on, output: '" + network.getOutputString() + "'");
        }));
        registered.get(0).succeeded(); // the selector: bytes arrived
        events.add("after the round, output: '" + network.getOutputString() + "'");
        return events;
    }

    @Test
    void roundOfReads_keepsTheConnectionsCallback_itsInvocationTypeAndItsFailures() {
        List<Callback> registered = new ArrayList<>();
        FairEndPoint fair = new FairEndPoint(registering(registered), true);
        List<Throwable> failures = new ArrayList<>();
        Callback fillable = new Callback() {
            @Override public void failed(Throwable x) { failures.add(x); }
            @Override public InvocationType getInvocationType() { return InvocationType.NON_BLOCKING; }
        };

        fair.fillInterested(fillable);
        fair.fillInterested(fillable);
        assertSame(registered.get(0), registered.get(1), "one wrapper for the connection's one callback");
        assertEquals(Invocable.InvocationType.NON_BLOCKING, registered.get(0).getInvocationType());
        fair.fillInterested(Callback.from(() -> { })); // a blocking callback: its own wrapper, its own type
        assertEquals(Invocable.InvocationType.BLOCKING, registered.get(2).getInvocationType());
        IllegalStateException failure = new IllegalStateException("closed");
        registered.get(0).failed(failure);
        assertEquals(List.of(failure), failures);
    }

    /** An end point that records the callbacks registered for fill interest, for the test to call. */
    private static ByteArrayEndPoint registering(List<Callback> registered) {
        return new ByteArrayEndPoint() {
            @Override
            public void fillInterested(Callback callback) {
                registered.add(callback);
            }
        };
    }

    private static int drain(FairEndPoint endPoint) throws Exception {
        int total = 0;
        while (true) {
            ByteBuffer buffer = BufferUtil.allocate(16 * 1024);
            int filled = endPoint.fill(buffer);
            if (filled <= 0)
                return total;
            total += filled;
        }
    }

}
