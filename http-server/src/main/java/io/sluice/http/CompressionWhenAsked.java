package io.sluice.http;

import org.eclipse.jetty.compression.server.CompressionHandler;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Sends a request through Jetty's {@link CompressionHandler} only when there is something for it to do: the request
 * body has a {@code Content-Encoding}, or the client takes an encoded response ({@code Accept-Encoding}). Most API
 * clients send neither (h2load, the feed clients, curl without {@code --compressed}), and for them the handler would
 * still match the path, walk every request header and wrap the request. They get what it would have added to their
 * response, {@code Vary: Accept-Encoding}, here (for every method, where the handler adds it for the methods it may
 * compress; the header is harmless on the others).
 */
final class CompressionWhenAsked extends Handler.Wrapper {

    private static final PreEncodedHttpField VARY = new PreEncodedHttpField(HttpHeader.VARY,
                                                                            HttpHeader.ACCEPT_ENCODING.asString());

    private final Handler uncompressed;

    CompressionWhenAsked(CompressionHandler compression) {
        super(compression);
        this.uncompressed = compression.getHandler();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        HttpFields headers = request.getHeaders();
        if (headers.contains(HttpHeader.ACCEPT_ENCODING) || headers.contains(HttpHeader.CONTENT_ENCODING))
            return super.handle(request, response, callback);
        response.getHeaders().add(VARY); // a new response: nothing set a Vary before this (ensureField would look)
        return uncompressed.handle(request, response, callback);
    }

}
