package io.sluice.http;

import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Jetty's aggregation buffers in the largest pooled size; every other buffer as asked. */
class AggregateBufferPoolTest {

    private final ArrayByteBufferPool pooled = new ArrayByteBufferPool();
    private final ByteBufferPool pool = AggregateBufferPool.of(pooled);

    @Test
    void aggregates_comeInThePoolsLargestPooledSize() {
        assertEquals(8 * 1024, AggregateBufferPool.DEFAULT_AGGREGATE_BYTES);
        assertEquals(64 * 1024, assertInstanceOf(AggregateBufferPool.class, pool).aggregateBytes());
        assertEquals(64 * 1024, capacityOf(pool.acquire(AggregateBufferPool.DEFAULT_AGGREGATE_BYTES, true)));
        assertEquals(64 * 1024, capacityOf(new ByteBufferPool.Sized(pool, false, -1).acquire()));
    }

    @Test
    void otherSizes_passAsAsked() {
        assertEquals(4 * 1024, capacityOf(pool.acquire(100, false)));
        assertEquals(Connectors.INPUT_BUFFER_BYTES, capacityOf(pool.acquire(Connectors.INPUT_BUFFER_BYTES, true)));
        assertEquals(12 * 1024, capacityOf(pool.acquire(AggregateBufferPool.DEFAULT_AGGREGATE_BYTES + 1, false)));
    }

    @Test
    void aPoolWithNothingLarger_orOfAnotherKind_isUsedAsItIs() {
        var small = new ArrayByteBufferPool(0, 4096, AggregateBufferPool.DEFAULT_AGGREGATE_BYTES);
        assertSame(small, AggregateBufferPool.of(small));
        assertSame(ByteBufferPool.NON_POOLING, AggregateBufferPool.of(ByteBufferPool.NON_POOLING));
    }

    private static int capacityOf(RetainableByteBuffer buffer) {
        try {
            return buffer.capacity();
        }
        finally {
            buffer.release();
        }
    }

}
