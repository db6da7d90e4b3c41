package io.sluice.container;

import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Limits request bodies to a number of bytes as the wrapped handler reads them. Placed inside the server's gzip
 * handler, it counts inflated bytes. A declared {@code Content-Length} over the limit is answered 413 at once; a body
 * that grows past it makes {@code read()} return a terminal failure chunk carrying Jetty's {@link HttpException} for
 * 413, which a handler that fails its callback with it turns into a 413 response.
 */
public class RequestSizeLimitHandler extends Handler.Wrapper {

    private final long maxBytes;

    public RequestSizeLimitHandler(long maxBytes, Handler handler) {
        super(handler);
        if (maxBytes <= 0)
            throw new IllegalArgumentException("maxBytes must be positive, but was " + maxBytes);
        this.maxBytes = maxBytes;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        long declared = request.getHeaders().getLongField(HttpHeader.CONTENT_LENGTH);
        if (declared > maxBytes) {
            JsonResponses.error(response, callback, HttpStatus.PAYLOAD_TOO_LARGE_413, tooLarge(declared));
            return true;
        }
        return super.handle(new Limited(request), response, callback);
    }

    private String tooLarge(long bytes) {
        return "Request content length " + bytes + " exceeds limit of " + maxBytes + " bytes";
    }

    private final class Limited extends Request.Wrapper {

        private long read;
        private Content.Chunk failure;

        Limited(Request request) {
            super(request);
        }

        @Override
        public Content.Chunk read() {
            if (failure != null)
                return failure;
            Content.Chunk chunk = super.read();
            if (chunk == null || Content.Chunk.isFailure(chunk))
                return chunk;
            read += chunk.remaining();
            if (read > maxBytes) {
                chunk.release();
                failure = Content.Chunk.from(new HttpException.RuntimeException(HttpStatus.PAYLOAD_TOO_LARGE_413,
                                                                                tooLarge(read) + " (counted after inflation)"), true);
                return failure;
            }
            return chunk;
        }

    }

}
