package io.sluice.http;

import io.sluice.content.CoalescedWrites;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ReadPendingException;
import java.nio.channels.WritePendingException;

/**
 * An HTTP/2 connection's end point that reads at most {@link #ROUND_BYTES} per wake-up: then {@link #fill} reports
 * nothing until the connection asks to be woken again ({@link #fillInterested}), which it does at once.
 *
 * <p>Jetty parses HTTP/2 on the thread that woke the connection, often the selector's own, and keeps reading while
 * bytes are there. Frames that start no request (HEADERS it answers with a stream reset, say) give it no reason to stop,
 * so a client that sends them without pause held the selector, and every other connection on it waited: ordinary
 * reads took 15 s. Ending each round after {@code ROUND_BYTES} lets the selector serve the others in between; a busy
 * legitimate connection pays one more wake-up per {@code ROUND_BYTES}.
 *
 * <p>It also lets a thread answering many operations at once ({@link CoalescedWrites}) defer its first socket write to
 * the end of that work, so its later responses on the connection leave with the next write instead of one write each.
 * A round of reads is such work when the server's handlers never block: Jetty then answers the requests of the frames
 * it reads on the reading thread itself, and their responses leave together when the round ends, one socket write (one
 * TLS record) for a round's requests instead of one each. With the response bodies in slabs (BodySlabs: without them
 * Jetty's frame accumulator made it slower still) that took a 1 KiB GET over one h2c connection with 256 streams from
 * 14.1 to 7.5 µs of server CPU, and the bare Jetty handler of bench/ceiling from 10.8 to 6.3. Code run on the reading
 * thread must then never wait for a write to its own connection, which a non-blocking handler never does.
 */
final class FairEndPoint implements EndPoint, EndPoint.Wrapper {

    /** Bytes one wake-up of the connection reads at most. */
    static final int ROUND_BYTES = 64 * 1024;

    private final EndPoint endPoint;
    private final boolean coalesceRounds;
    private long left = ROUND_BYTES; // touched only by the connection's reading thread of the moment
    private volatile Round round; // the connection's callback for "fillable", wrapped: one per connection in practice

    /** An end point that coalesces the writes of each round of reads when {@code coalesceRounds}. */
    FairEndPoint(EndPoint endPoint, boolean coalesceRounds) {
        this.endPoint = endPoint;
        this.coalesceRounds = coalesceRounds;
    }

    /** Whether this end point's rounds of reads coalesce their writes. */
    boolean coalescesRounds() {
        return coalesceRounds;
    }

    @Override
    public EndPoint unwrap() {
        return endPoint;
    }

    @Override
    public int fill(ByteBuffer buffer) throws IOException {
        if (left <= 0)
            return 0; // the connection then asks to be woken: the selector gets its turn
        int filled = endPoint.fill(buffer);
        if (filled > 0)
            left -= filled;
        return filled;
    }

    @Override
    public void fillInterested(Callback callback) throws ReadPendingException {
        left = ROUND_BYTES;
        endPoint.fillInterested(round(callback));
    }

    @Override
    public boolean tryFillInterested(Callback callback) {
        left = ROUND_BYTES;
        return endPoint.tryFillInterested(round(callback));
    }

    /** {@code fillable}, made to coalesce the writes of the round of reads it starts, if this end point does. */
    private Callback round(Callback fillable) {
        if ( ! coalesceRounds)
            return fillable;
        Round last = round;
        if (last == null || last.fillable != fillable) // Jetty's connections pass the same callback every time
            round = last = new Round(fillable);
        return last;
    }

    /** The connection's "fillable" callback, run as a {@link CoalescedWrites} task: its round's writes leave after. */
    private static final class Round implements Callback {

        private final Callback fillable;
        private final Runnable read;

        Round(Callback fillable) {
            this.fillable = fillable;
            this.read = fillable::succeeded;
        }

        @Override public void succeeded() { CoalescedWrites.run(read); }
        @Override public void failed(Throwable x) { fillable.failed(x); }
        @Override public InvocationType getInvocationType() { return fillable.getInvocationType(); }

    }

    @Override public boolean isFillInterested() { return endPoint.isFillInterested(); }
    @Override public SocketAddress getLocalSocketAddress() { return endPoint.getLocalSocketAddress(); }
    @Override public SocketAddress getRemoteSocketAddress() { return endPoint.getRemoteSocketAddress(); }
    @Override public boolean isOpen() { return endPoint.isOpen(); }
    @Override public long getCreatedTimeStamp() { return endPoint.getCreatedTimeStamp(); }
    @Override public void shutdownOutput() { endPoint.shutdownOutput(); }
    @Override public boolean isOutputShutdown() { return endPoint.isOutputShutdown(); }
    @Override public boolean isInputShutdown() { return endPoint.isInputShutdown(); }
    @Override public void close() { endPoint.close(); }
    @Override public void close(Throwable cause) { endPoint.close(cause); }
    @Override public SocketAddress receive(ByteBuffer buffer) throws IOException { return endPoint.receive(buffer); }
    @Override public boolean flush(ByteBuffer... buffers) throws IOException { return endPoint.flush(buffers); }
    @Override public boolean send(SocketAddress address, ByteBuffer... buffers) throws IOException { return endPoint.send(address, buffers); }
    @Override public Object getTransport() { return endPoint.getTransport(); }
    @Override public long getIdleTimeout() { return endPoint.getIdleTimeout(); }
    @Override public void setIdleTimeout(long idleTimeout) { endPoint.setIdleTimeout(idleTimeout); }

    /**
     * Writes now, or at the end of the {@link CoalescedWrites#run task} this thread runs: then the responses the task
     * answers on this connection after this one queue behind this write and leave together in the next.
     */
    @Override
    public void write(Callback callback, ByteBuffer... buffers) throws WritePendingException {
        if (CoalescedWrites.active()) // checked first: no deferred write is made for the usual, immediate one
            CoalescedWrites.defer(() -> startDeferred(callback, () -> endPoint.write(callback, buffers)));
        else
            endPoint.write(callback, buffers);
    }

    @Override public void write(Callback callback, SocketAddress address, ByteBuffer... buffers) throws WritePendingException { endPoint.write(callback, address, buffers); }

    /** As {@link #write(Callback, ByteBuffer...)}: Jetty's HTTP/2 flusher writes through this one. */
    @Override
    public void write(boolean last, ByteBuffer byteBuffer, Callback callback) {
        if (CoalescedWrites.active())
            CoalescedWrites.defer(() -> startDeferred(callback, () -> endPoint.write(last, byteBuffer, callback)));
        else
            endPoint.write(last, byteBuffer, callback);
    }

    /** Starts a deferred write; the caller that would have seen it throw has returned, so its callback is told. */
    private static void startDeferred(Callback callback, Runnable write) {
        try {
            write.run();
        }
        catch (RuntimeException e) {
            callback.failed(e);
        }
    }

    @Override public Callback cancelWrite(Throwable cause) { return endPoint.cancelWrite(cause); }
    @Override public Connection getConnection() { return endPoint.getConnection(); }
    @Override public void setConnection(Connection connection) { endPoint.setConnection(connection); }
    @Override public void onOpen() { endPoint.onOpen(); }
    @Override public void onClose(Throwable cause) { endPoint.onClose(cause); }
    @Override public void upgrade(Connection newConnection) { endPoint.upgrade(newConnection); }
    @Override public SslSessionData getSslSessionData() { return endPoint.getSslSessionData(); }
    @Override public boolean isSecure() { return endPoint.isSecure(); }

    @Override
    public String toString() {
        return "Fair[" + endPoint + "]";
    }

}
