package io.sluice.feed;

import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.Callback;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ReadPendingException;
import java.nio.channels.WritePendingException;

/**
 * A feed session's end point that holds back the session's socket write while the session handles what it read, and
 * makes it when that handling ends.
 *
 * <p>A feed's requests are mostly sent by the thread that reads responses: each completed operation frees room for the
 * next, sent at once. Without this, each of them left in a socket write of its own (and over TLS a record of its own,
 * encrypted on its own): one write per operation, also when a read brought dozens of responses. Here the first
 * request sent while reading waits; Jetty's HTTP/2 flusher waits for that write, so the requests sent after it queue
 * up and leave together, in one write (and one TLS record up to 16 KiB), when the read is handled.
 *
 * <p>Only the reading thread's writes are held, one at a time: a session has at most one write outstanding. Nothing a
 * session's reading thread runs may wait for its own requests to be written; the one thing in this client that can
 * wait there, room in a full client, first calls {@link #releaseHeldWrite}.
 */
final class ReadBatchedEndPoint implements EndPoint, EndPoint.Wrapper {

    /** The end point holding a write on this thread, if any. */
    private static final ThreadLocal<ReadBatchedEndPoint> HOLDING = new ThreadLocal<>();

    private final EndPoint endPoint;
    private volatile Thread reader; // the thread handling what this end point read, while it does
    private Runnable held; // touched only by the reader
    private ReadScope lastScope;

    ReadBatchedEndPoint(EndPoint endPoint) {
        this.endPoint = endPoint;
    }

    /**
     * Makes the write this thread holds, if any, and holds none after it until the end point's next read: before this
     * thread waits for something that may need those writes.
     */
    static void releaseHeldWrite() {
        ReadBatchedEndPoint holding = HOLDING.get();
        if (holding == null) return;
        holding.reader = null;
        holding.release();
    }

    @Override public EndPoint unwrap() { return endPoint; }

    /** Whether {@code thread} is handling what this end point read. */
    boolean isReadBy(Thread thread) {
        return reader == thread;
    }

    @Override
    public void fillInterested(Callback callback) throws ReadPendingException {
        endPoint.fillInterested(scope(callback));
    }

    @Override
    public boolean tryFillInterested(Callback callback) {
        return endPoint.tryFillInterested(scope(callback));
    }

    /** The session passes the same callback at each read: one scope for it, not one per read. */
    private ReadScope scope(Callback callback) {
        ReadScope scope = lastScope;
        if (scope == null || scope.callback != callback) lastScope = scope = new ReadScope(callback);
        return scope;
    }

    @Override
    public void write(Callback callback, ByteBuffer... buffers) throws WritePendingException {
        if (reader == Thread.currentThread() && hold(() -> endPoint.write(callback, buffers), callback)) return;
        endPoint.write(callback, buffers);
    }

    /** As {@link #write(Callback, ByteBuffer...)}: Jetty's HTTP/2 flusher writes through this one. */
    @Override
    public void write(boolean last, ByteBuffer buffer, Callback callback) {
        if (reader == Thread.currentThread() && hold(() -> endPoint.write(last, buffer, callback), callback)) return;
        endPoint.write(last, buffer, callback);
    }

    /** Holds {@code write}, on the reading thread, unless another end point holds one on this thread. */
    private boolean hold(Runnable write, Callback callback) {
        if (held != null) throw new WritePendingException(); // the held one is not made yet: as for any pending write
        if (HOLDING.get() != null) return false;
        held = () -> {
            try {
                write.run();
            }
            catch (RuntimeException e) { // the caller that would have seen it has returned: its callback is told
                callback.failed(e);
            }
        };
        HOLDING.set(this);
        return true;
    }

    private void release() {
        Runnable write = held;
        if (write == null) return;
        held = null;
        HOLDING.remove();
        write.run();
    }

    /** Runs a read callback with this thread as the reader, then makes the write it held. */
    private final class ReadScope implements Callback {

        private final Callback callback;

        ReadScope(Callback callback) {
            this.callback = callback;
        }

        @Override
        public void succeeded() {
            if (reader == Thread.currentThread()) { // nested: the outer scope releases
                callback.succeeded();
                return;
            }
            reader = Thread.currentThread();
            try {
                callback.succeeded();
            }
            finally {
                reader = null;
                release();
            }
        }

        @Override public void failed(Throwable failure) { callback.failed(failure); }
        @Override public InvocationType getInvocationType() { return callback.getInvocationType(); }
        @Override public String toString() { return "ReadScope[" + callback + "]"; }

    }

    @Override public int fill(ByteBuffer buffer) throws IOException { return endPoint.fill(buffer); }
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
    @Override public void write(Callback callback, SocketAddress address, ByteBuffer... buffers) { endPoint.write(callback, address, buffers); }
    @Override public Object getTransport() { return endPoint.getTransport(); }
    @Override public long getIdleTimeout() { return endPoint.getIdleTimeout(); }
    @Override public void setIdleTimeout(long idleTimeout) { endPoint.setIdleTimeout(idleTimeout); }
    @Override public Callback cancelWrite(Throwable cause) { return endPoint.cancelWrite(cause); }
    @Override public Connection getConnection() { return endPoint.getConnection(); }
    @Override public void setConnection(Connection connection) { endPoint.setConnection(connection); }
    @Override public void onOpen() { endPoint.onOpen(); }
    @Override public void onClose(Throwable cause) { endPoint.onClose(cause); }
    @Override public void upgrade(Connection newConnection) { endPoint.upgrade(newConnection); }
    @Override public SslSessionData getSslSessionData() { return endPoint.getSslSessionData(); }
    @Override public boolean isSecure() { return endPoint.isSecure(); }
    @Override public String toString() { return "ReadBatched[" + endPoint + "]"; }

}
