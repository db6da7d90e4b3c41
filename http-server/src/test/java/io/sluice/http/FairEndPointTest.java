package io.sluice.http;

import io.sluice.content.CoalescedWrites;
import org.eclipse.jetty.io.ByteArrayEndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
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

/** The byte budget per wake-up of an HTTP/2 connection's end point. */
class FairEndPointTest {

    @Test
    void fill_stopsAfterOneRound_untilTheConnectionAsksToBeWokenAgain() throws Exception {
        ByteArrayEndPoint network = new ByteArrayEndPoint();
        network.addInput(ByteBuffer.wrap(new byte[3 * FairEndPoint.ROUND_BYTES]));
        FairEndPoint fair = new FairEndPoint(network);
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
        FairEndPoint fair = new FairEndPoint(network);
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
        FairEndPoint fair = new FairEndPoint(network);

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
        FairEndPoint fair = new FairEndPoint(network);
        AtomicReference<Throwable> failure = new AtomicReference<>();

        CoalescedWrites.run(() -> {
            fair.write(Callback.NOOP, BufferUtil.toBuffer("abc")); // stays pending: two bytes do not fit
            fair.write(Callback.from(() -> { }, failure::set), BufferUtil.toBuffer("d"));
        });

        assertTrue(failure.get() instanceof WritePendingException, String.valueOf(failure.get()));
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
