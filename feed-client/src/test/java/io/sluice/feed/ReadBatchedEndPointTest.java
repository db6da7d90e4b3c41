package io.sluice.feed;

import org.eclipse.jetty.io.ByteArrayEndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.junit.jupiter.api.Test;

import java.nio.channels.WritePendingException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Writes a session makes while it handles a read leave when the read is handled. */
class ReadBatchedEndPointTest {

    private final ByteArrayEndPoint network = new ByteArrayEndPoint();
    private final ReadBatchedEndPoint endPoint = new ReadBatchedEndPoint(network);
    private final List<String> events = new ArrayList<>();

    /** Makes {@code onRead} run as the session's read callback, now. */
    private void read(Runnable onRead) {
        read(network, endPoint, onRead);
    }

    private static void read(ByteArrayEndPoint network, ReadBatchedEndPoint endPoint, Runnable onRead) {
        endPoint.fillInterested(Callback.from(onRead)); // no input: stays registered
        assertTrue(network.getFillInterest().fillable());
    }

    private Callback written(String what) {
        return Callback.from(() -> events.add(what + " written"), failure -> events.add(what + " failed: " + failure.getClass().getSimpleName()));
    }

    @Test
    void writeWhileReading_leavesWhenTheReadIsHandled_andLaterOnesGoAtOnce() {
        assertSame(network, endPoint.unwrap());
        read(() -> {
            assertTrue(endPoint.isReadBy(Thread.currentThread()));
            endPoint.write(false, BufferUtil.toBuffer("one "), written("first"));
            events.add("read goes on, output: '" + network.getOutputString() + "'");
        });
        assertFalse(endPoint.isReadBy(Thread.currentThread()));
        endPoint.write(written("second"), BufferUtil.toBuffer("two"));

        assertEquals(List.of("read goes on, output: ''", "first written", "second written"), events);
        assertEquals("one two", network.getOutputString());
    }

    @Test
    void anotherThreadsWrite_isNotHeld() throws InterruptedException {
        AtomicReference<String> seen = new AtomicReference<>();
        read(() -> {
            Thread other = new Thread(() -> {
                endPoint.write(written("other thread's"), BufferUtil.toBuffer("other"));
                seen.set(network.getOutputString());
            });
            other.start();
            try {
                other.join();
            }
            catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
        assertEquals("other", seen.get());
        assertEquals(List.of("other thread's written"), events);
    }

    @Test
    void secondWriteWhileOneIsHeld_isRefusedAsPending_asByAnyEndPoint() {
        read(() -> {
            endPoint.write(written("first"), BufferUtil.toBuffer("one"));
            assertThrows(WritePendingException.class, () -> endPoint.write(written("second"), BufferUtil.toBuffer("two")));
        });
        assertEquals(List.of("first written"), events);
        assertEquals("one", network.getOutputString());
    }

    @Test
    void releaseHeldWrite_makesIt_andWhatFollowsGoesAtOnce() {
        read(() -> {
            endPoint.write(written("first"), BufferUtil.toBuffer("one "));
            ReadBatchedEndPoint.releaseHeldWrite();
            events.add("read goes on, output: '" + network.getOutputString() + "'");
            endPoint.write(false, BufferUtil.toBuffer("two"), written("second"));
            events.add("read goes on, output: '" + network.getOutputString() + "'");
        });
        ReadBatchedEndPoint.releaseHeldWrite(); // nothing held: nothing happens
        assertEquals(List.of("first written", "read goes on, output: 'one '", "second written", "read goes on, output: 'one two'"), events);
    }

    @Test
    void heldWrite_isMadeAlsoWhenTheReadCallbackThrows() {
        assertThrows(IllegalStateException.class, () -> read(() -> {
            endPoint.write(written("first"), BufferUtil.toBuffer("one"));
            throw new IllegalStateException("session failed");
        }));
        assertEquals(List.of("first written"), events);
        assertEquals("one", network.getOutputString());
    }

    @Test
    void heldWrite_thatCannotStart_failsItsCallback() {
        ByteArrayEndPoint full = new ByteArrayEndPoint(new byte[0], 4, false); // room for four bytes, never more
        ReadBatchedEndPoint batched = new ReadBatchedEndPoint(full);
        batched.write(written("large"), BufferUtil.toBuffer("more than four bytes")); // stays pending
        read(full, batched, () -> batched.write(written("held"), BufferUtil.toBuffer("x")));
        assertEquals(List.of("held failed: WritePendingException"), events);
        assertThrows(WritePendingException.class, () -> batched.write(Callback.NOOP, BufferUtil.toBuffer("y")));
    }

    @Test
    void readCallback_keepsTheSessionsInvocationType() {
        Callback nonBlocking = new Callback() {
            @Override public InvocationType getInvocationType() { return Invocable.InvocationType.NON_BLOCKING; }
        };
        endPoint.fillInterested(nonBlocking); // no input: stays registered
        assertEquals(Invocable.InvocationType.NON_BLOCKING, network.getFillInterest().getCallbackInvocationType());
        assertTrue(endPoint.isFillInterested());
        assertTrue(network.getFillInterest().fillable());
        assertFalse(endPoint.isFillInterested());
        assertTrue(endPoint.tryFillInterested(nonBlocking));
        assertEquals(Invocable.InvocationType.NON_BLOCKING, network.getFillInterest().getCallbackInvocationType());
    }

}
