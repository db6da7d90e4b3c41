package io.sluice.http;

import org.eclipse.jetty.io.ByteArrayEndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

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
