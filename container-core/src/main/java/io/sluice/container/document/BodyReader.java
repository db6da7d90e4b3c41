package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;

import java.util.Arrays;
import java.util.concurrent.CompletableFuture;

/**
 * Reads a request body into memory with Jetty's non-blocking read/demand loop, up to a limit on the bytes the handler
 * sees, which are inflated bytes when the request was gzipped. One instance per body.
 */
public final class BodyReader {

    private final Content.Source source;
    private final long limit;
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private byte[] buffer = new byte[1024];
    private int size = 0;

    private BodyReader(Content.Source source, long limit) {
        this.source = source;
        this.limit = limit;
    }

    /**
     * Reads all of {@code source}. The future completes with the bytes, or exceptionally with a
     * {@link HttpStatusException}: 413 with spec §7.1's text when the body exceeds {@code limit} bytes (reading stops
     * there), 400 (or the failure's own status) when reading fails.
     */
    public static CompletableFuture<byte[]> read(Content.Source source, long limit) {
        long declared = source.getLength();
        if (declared > limit)
            return CompletableFuture.failedFuture(tooLarge(declared, limit));
        BodyReader reader = new BodyReader(source, limit);
        reader.run();
        return reader.result;
    }

    static HttpStatusException tooLarge(long size, long limit) {
        return new HttpStatusException(HttpStatus.PAYLOAD_TOO_LARGE_413,
                                       "Document operation request size " + size + " bytes exceeds maximum size of "
                                       + limit + " bytes. See https://docs.vespa.ai/en/writing/document-v1-api-guide.html#request-size-limit");
    }

    private void run() {
        while (true) {
            Content.Chunk chunk = source.read();
            if (chunk == null) {
                source.demand(this::run);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                Throwable failure = chunk.getFailure();
                if ( ! chunk.isLast()) {
                    // A transient failure (e.g. an idle timeout while waiting for data): give up on the body.
                    source.fail(failure);
                }
                result.completeExceptionally(readFailure(failure));
                return;
            }
            int remaining = chunk.remaining();
            if ((long) size + remaining > limit) {
                chunk.release();
                result.completeExceptionally(tooLarge((long) size + remaining, limit));
                return;
            }
            if (remaining > 0) {
                ensureCapacity(size + remaining);
                chunk.getByteBuffer().get(buffer, size, remaining);
                size += remaining;
            }
            boolean last = chunk.isLast();
            chunk.release();
            if (last) {
                result.complete(size == buffer.length ? buffer : Arrays.copyOf(buffer, size));
                return;
            }
        }
    }

    private void ensureCapacity(int needed) {
        if (needed > buffer.length)
            buffer = Arrays.copyOf(buffer, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(needed, 2L * buffer.length)));
    }

    private static HttpStatusException readFailure(Throwable failure) {
        if (failure instanceof HttpException) {
            int status = ((HttpException) failure).getCode();
            if (status >= 400 && status <= 599)
                return new HttpStatusException(status, "Failed reading request body: " + failure.getMessage());
        }
        return new HttpStatusException(HttpStatus.BAD_REQUEST_400, "Failed reading request body: " + failure);
    }

}
