package io.sluice.http;

import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;

/**
 * The connectors' buffer pool: the server's, except that a buffer of Jetty's default aggregation size (that of a
 * {@link ByteBufferPool.Sized} given none, 8 KiB) comes in the largest size the server's pool keeps (64 KiB).
 *
 * <p>Jetty's HTTP/2 flusher generates every frame queued on a connection into one accumulator before it writes them,
 * taking buffers of that default size as it fills. Before each write into it (every frame header, every HPACK block)
 * the accumulator finds its own size by walking the list of those buffers. The responses to a round of reads leave in
 * one write ({@link FairEndPoint}): 256 GETs of 1 KiB documents make some 300 KB, 36 buffers of 8 KiB walked a few
 * times per response, or 5 of 64 KiB. Walking it was 4% of the server's CPU samples of such GETs (1% for the ceiling's
 * small answers), and the larger buffers took the server's CPU per GET down by about 6% (15bca5f, 2026-11-29).
 *
 * <p>The connectors read into buffers of another size ({@link Connectors#INPUT_BUFFER_BYTES}), which pass unchanged;
 * HTTP/1.1's response headers and output buffers are 64 KiB by default already. A larger write buffer costs a
 * connection memory only while a write is under way: the flusher returns its buffers when the write completes.
 */
final class AggregateBufferPool extends ByteBufferPool.Wrapper {

    /** The size Jetty's accumulators take buffers in when not told one. */
    static final int DEFAULT_AGGREGATE_BYTES =
            new ByteBufferPool.Sized(ByteBufferPool.NON_POOLING, false, -1).getSize();

    private final int aggregateBytes;

    private AggregateBufferPool(ByteBufferPool pool, int aggregateBytes) {
        super(pool);
        this.aggregateBytes = aggregateBytes;
    }

    /**
     * {@code pool}, handing out its largest pooled buffers where Jetty aggregates; {@code pool} itself unless it is
     * an {@link ArrayByteBufferPool} that pools buffers larger than the default aggregate.
     */
    static ByteBufferPool of(ByteBufferPool pool) {
        if (pool instanceof ArrayByteBufferPool array && array.getMaxCapacity() > DEFAULT_AGGREGATE_BYTES)
            return new AggregateBufferPool(pool, array.getMaxCapacity());
        return pool;
    }

    /** The size of the buffers this pool hands out for Jetty's aggregates. */
    int aggregateBytes() {
        return aggregateBytes;
    }

    @Override
    public RetainableByteBuffer.Mutable acquire(int size, boolean direct) {
        return super.acquire(size == DEFAULT_AGGREGATE_BYTES ? aggregateBytes : size, direct);
    }

}
