package io.sluice.http;

import io.sluice.container.JsonResponses;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Holds HTTP/2 requests to the connector's {@code requestHeaderSize}, as Jetty's HTTP/1.1 parser holds HTTP/1.1 ones
 * (414, 431), but on the request's own stream: the connection and its other streams go on.
 *
 * <p>Jetty's HTTP/2 decoder fails the whole connection (GOAWAY PROTOCOL_ERROR) on a header list over its limit, which
 * is also what it advertises in {@code SETTINGS_MAX_HEADER_LIST_SIZE} (and applies to itself from there). So the
 * connectors' HTTP/2 configuration sets that to {@link #DECODE_FACTOR} times {@code requestHeaderSize}: a header list
 * between the two is decoded, and answered 431 here; only a client that ignores the advertised size meets the
 * connection error. The {@link Check} customizer measures each HTTP/2 request's header list as RFC 7541 counts it
 * (name, value and 32 bytes per field, the pseudo-headers included) and marks one over the limit.
 */
final class HeaderSizeLimitHandler extends Handler.Wrapper {

    /** How much larger than {@code requestHeaderSize} a header list Jetty's HTTP/2 decoder accepts. */
    static final int DECODE_FACTOR = 2;

    private static final String TOO_LARGE = HeaderSizeLimitHandler.class.getName() + ".tooLarge";
    private static final int FIELD_OVERHEAD = 32; // RFC 7541 §4.1

    HeaderSizeLimitHandler(Handler handler) {
        super(handler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Object tooLarge = request.getAttribute(TOO_LARGE);
        if (tooLarge != null) {
            JsonResponses.error(response, callback, HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431, (String) tooLarge);
            return true;
        }
        return super.handle(request, response, callback);
    }

    /** The HTTP/2 configuration for a connector whose HTTP/1.1 configuration is {@code http}. */
    static HttpConfiguration http2Configuration(HttpConfiguration http) {
        int limit = http.getRequestHeaderSize();
        var h2 = new HttpConfiguration(http);
        h2.setRequestHeaderSize((int) Math.min(Integer.MAX_VALUE, (long) DECODE_FACTOR * limit));
        h2.addCustomizer(new Check(limit));
        return h2;
    }

    /**
     * The header list size of {@code request} as RFC 7541 counts it, with :method, :scheme, :authority and :path. The
     * lengths of {@code :authority} and {@code :path} are those of {@link HttpURI#getAuthority()} and
     * {@link HttpURI#getPathQuery()}, counted from their parts: those methods concatenate a new string on every call.
     */
    static long headerListSize(Request request) {
        HttpURI uri = request.getHttpURI();
        long size = 4L * FIELD_OVERHEAD + ":method".length() + request.getMethod().length() + ":scheme".length()
                    + length(uri.getScheme()) + ":authority".length() + authorityLength(uri) + ":path".length()
                    + pathQueryLength(uri);
        for (HttpField field : request.getHeaders()) {
            size += FIELD_OVERHEAD + field.getName().length() + length(field.getValue());
        }
        return size;
    }

    /** The length of {@code uri.getAuthority()}: the host, then {@code :port} if it has a port. */
    static int authorityLength(HttpURI uri) {
        int port = uri.getPort();
        return length(uri.getHost()) + (port > 0 ? 1 + decimalDigits(port) : 0);
    }

    /** The length of {@code uri.getPathQuery()}: the path, then {@code ?query} if it has a query. */
    static int pathQueryLength(HttpURI uri) {
        String query = uri.getQuery();
        return length(uri.getPath()) + (query == null ? 0 : 1 + query.length());
    }

    private static int decimalDigits(int positive) {
        int digits = 1;
        for (int rest = positive / 10; rest > 0; rest /= 10)
            digits++;
        return digits;
    }

    private static int length(String text) {
        return text == null ? 0 : text.length();
    }

    /** Marks requests whose header list is larger than the limit, for the handler to answer. */
    static final class Check implements HttpConfiguration.Customizer {

        private final int limit;

        Check(int limit) {
            this.limit = limit;
        }

        int limit() {
            return limit;
        }

        @Override
        public Request customize(Request request, HttpFields.Mutable responseHeaders) {
            long size = headerListSize(request);
            if (size > limit) {
                request.setAttribute(TOO_LARGE, "Request header fields too large: " + size + " bytes with the path, "
                                                + "more than the " + limit + " bytes this server accepts (requestHeaderSize)");
            }
            return request;
        }

    }

}
