package io.sluice.http.common;

import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.frames.DataFrame;
import org.eclipse.jetty.http2.frames.HeadersFrame;
import org.eclipse.jetty.http2.generator.Generator;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BodySlabsTest {

    private static final int STREAMS = 128;

    @Test
    void smallBodiesAreCopiedBehindEachOther_andKeepTheirBytesWhenTheSlabFillsUp() {
        int count = 3 * BodySlabs.SLAB_BYTES / 1000; // three slabs' worth
        ByteBuffer[] views = new ByteBuffer[count];
        for (int i = 0; i < count; i++) {
            byte[] body = body(i, 1000);
            views[i] = BodySlabs.of(body);
            Arrays.fill(body, (byte) 0); // the view is a copy
            assertTrue(views[i].remaining() < views[i].capacity() / 64, "fills less than 1/64 of its buffer");
        }
        for (int i = 0; i < count; i++)
            assertArrayEquals(body(i, 1000), bytes(views[i]), "body " + i);
    }

    @Test
    void leasedBodies_keepTheirBytesWhileHeld_andSlabsAreUsedAgainOnlyOnceAllTheirBodiesAreReleased() throws Exception {
        List<BodySlabs.Lease> first = leaseUntilNextSlab(1000); // a thread's slab, filled up, then the next slab's first
        BodySlabs.Lease next = first.remove(first.size() - 1);
        byte[] firstSlab = first.get(0).buffer().array();
        assertTrue(first.size() > 1 && first.stream().allMatch(lease -> lease.buffer().array() == firstSlab));
        assertNotSame(firstSlab, next.buffer().array());
        for (int i = 0; i < first.size(); i++) {
            BodySlabs.Lease lease = first.get(i);
            assertTrue(lease.buffer().remaining() == 1000 && lease.buffer().capacity() == BodySlabs.SLAB_BYTES, "Jetty copies it");
            System.arraycopy(body(i, 1000), 0, lease.buffer().array(), lease.buffer().position(), 1000);
        }
        BodySlabs.Lease held = first.remove(first.size() - 1);
        first.forEach(BodySlabs.Lease::release);
        List<BodySlabs.Lease> more = leaseUntilNextSlab(1000); // fills the second slab: the first is still held
        more.addAll(leaseUntilNextSlab(1000));
        for (BodySlabs.Lease lease : more)
            assertNotSame(firstSlab, lease.buffer().array(), "a slab with a body still held is not used again");
        assertArrayEquals(body(first.size(), 1000), bytes(held.buffer()), "the held body kept its bytes");

        int free = BodySlabs.freeSlabs();
        Thread releaser = new Thread(held::release); // a write's callback may complete on any thread
        releaser.start();
        releaser.join();
        assertEquals(Math.min(free + 1, BodySlabs.FREE_SLABS), BodySlabs.freeSlabs(), "the first slab is free now");
        held.release(); // again: nothing
        assertEquals(Math.min(free + 1, BodySlabs.FREE_SLABS), BodySlabs.freeSlabs());
        next.release();
        more.forEach(BodySlabs.Lease::release);
    }

    @Test
    void leasedLargeBodies_haveTheirOwnBuffer() {
        BodySlabs.Lease lease = BodySlabs.lease(BodySlabs.MAX_COPIED_BYTES + 1);
        assertEquals(lease.buffer().capacity(), lease.buffer().remaining());
        lease.release();
        lease.release();
    }

    /** Leases bodies of {@code bytes} until one comes from another slab than the first; that one is the last. */
    private static List<BodySlabs.Lease> leaseUntilNextSlab(int bytes) {
        List<BodySlabs.Lease> leases = new ArrayList<>();
        leases.add(BodySlabs.lease(bytes));
        while (leases.get(leases.size() - 1).buffer().array() == leases.get(0).buffer().array())
            leases.add(BodySlabs.lease(bytes));
        return leases;
    }

    @Test
    void largeBodiesAreWrappedAsTheyAre() {
        byte[] body = body(7, BodySlabs.MAX_COPIED_BYTES + 1);
        ByteBuffer view = BodySlabs.of(body);
        assertSame(body, view.array());
        assertEquals(body.length, view.remaining());
        byte[] largestCopied = body(7, BodySlabs.MAX_COPIED_BYTES);
        ByteBuffer copy = BodySlabs.of(largestCopied);
        assertNotSame(largestCopied, copy.array());
        assertTrue(copy.remaining() < copy.capacity() / 64, "Jetty copies it");
        assertArrayEquals(largestCopied, bytes(copy));
    }

    @Test
    void buffersFromTheirOwnArray_areCopied_viewsOfALargerOneSentAsTheyAre() {
        ByteBuffer own = ByteBuffer.wrap(body(3, 900), 100, 700);
        ByteBuffer copy = BodySlabs.of(own);
        assertNotSame(own.array(), copy.array());
        assertTrue(copy.remaining() < copy.capacity() / 64, "Jetty copies it");
        assertArrayEquals(Arrays.copyOfRange(body(3, 900), 100, 800), bytes(copy));
        assertEquals(100, own.position()); // not moved
        assertSame(copy, BodySlabs.of(copy)); // a slab view: not copied again
        ByteBuffer large = ByteBuffer.wrap(body(4, BodySlabs.MAX_COPIED_BYTES + 1));
        assertSame(large, BodySlabs.of(large));
    }

    @Test
    void allocatedBodies_areWrittenInPlace_inTheSlabWhenSmall() {
        ByteBuffer first = BodySlabs.allocate(500), second = BodySlabs.allocate(500);
        if (first.array() == second.array()) // unless the first filled this thread's slab
            assertEquals(first.position() + 500, second.position()); // behind each other
        assertTrue(first.remaining() == 500 && first.remaining() < first.capacity() / 64, "Jetty copies it");
        System.arraycopy(body(1, 500), 0, first.array(), first.position(), 500);
        System.arraycopy(body(2, 500), 0, second.array(), second.position(), 500);
        assertArrayEquals(body(1, 500), bytes(first));
        assertArrayEquals(body(2, 500), bytes(second));
        ByteBuffer large = BodySlabs.allocate(BodySlabs.MAX_COPIED_BYTES + 1);
        assertEquals(large.capacity(), large.remaining());
        assertEquals(0, large.position());
    }

    /**
     * What the slabs are for: a session's queued requests, generated into one accumulator as Jetty's HTTP/2 flusher
     * does, leave in a few buffers, where wrapped bodies leave in a buffer each, plus one for the next frame header.
     */
    @Test
    void jettysFrameAccumulatorCopiesSlabBodies_butListsWrappedOnes() throws Exception {
        Written slabbed = generate(BodySlabs::of);
        Written wrapped = generate(ByteBuffer::wrap);
        assertArrayEquals(wrapped.bytes, slabbed.bytes, "the same frames on the wire");
        assertTrue(wrapped.buffers >= 2 * STREAMS, "wrapped bodies: " + wrapped.buffers + " buffers");
        assertTrue(slabbed.buffers <= STREAMS / 4, "slab bodies: " + slabbed.buffers + " buffers");
        checkDataFrames(slabbed.bytes);
    }

    private record Written(byte[] bytes, int buffers) { }

    private static Written generate(Function<byte[], ByteBuffer> bodies) throws Exception {
        ArrayByteBufferPool pool = new ArrayByteBufferPool();
        Generator generator = new Generator(pool);
        RetainableByteBuffer.Mutable accumulator = new RetainableByteBuffer.DynamicCapacity(pool, false, -1);
        for (int i = 0; i < STREAMS; i++) {
            int stream = 2 * i + 1;
            MetaData.Request request = new MetaData.Request("POST", HttpURI.from("http://localhost/document/v1/ns/t/docid/" + i),
                                                            HttpVersion.HTTP_2, HttpFields.EMPTY, 1000);
            generator.control(accumulator, new HeadersFrame(stream, request, null, false));
            generator.data(accumulator, new DataFrame(stream, bodies.apply(body(i, 1000)), true), 1000);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int[] buffers = { 0 };
        Content.Sink sink = (last, buffer, callback) -> {
            if (buffer.hasRemaining()) buffers[0]++;
            out.write(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
            buffer.position(buffer.limit());
            callback.succeeded();
        };
        accumulator.writeTo(sink, false, Callback.NOOP);
        accumulator.release();
        return new Written(out.toByteArray(), buffers[0]);
    }

    /** Each DATA frame carries the body of its stream. */
    private static void checkDataFrames(byte[] wire) {
        int data = 0;
        for (int at = 0; at < wire.length; ) {
            int length = (wire[at] & 0xff) << 16 | (wire[at + 1] & 0xff) << 8 | wire[at + 2] & 0xff;
            int type = wire[at + 3];
            int stream = ByteBuffer.wrap(wire, at + 5, 4).getInt() & 0x7fffffff;
            if (type == 0) {
                assertArrayEquals(body((stream - 1) / 2, 1000), Arrays.copyOfRange(wire, at + 9, at + 9 + length));
                data++;
            }
            at += 9 + length;
        }
        assertEquals(STREAMS, data);
    }

    private static byte[] body(int seed, int length) {
        byte[] body = new byte[length];
        for (int i = 0; i < length; i++) body[i] = (byte) (seed * 31 + i);
        return body;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

}
