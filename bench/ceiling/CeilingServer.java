import io.sluice.config.ConnectorConfig;
import io.sluice.config.ServerConfig;
import io.sluice.config.SslConfig;
import io.sluice.http.Connectors;
import io.sluice.http.common.BodySlabs;
import io.sluice.http.tls.TlsContextFactories;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The benchmark ceiling: bare Jetty with Sluice's own connectors (same factories, HTTP/2 settings and TLS policy) and
 * a single handler that answers every request with a fixed small JSON body, the size of a /document/v1 put reply. No routing, statistics,
 * compression or graceful-stop wrappers: whatever Sluice adds on top is the gap to this.
 *
 * <p>With {@code -Dceiling.getBytes=N} it answers GETs with an N-byte JSON body instead, e.g. the size of the document
 * Sluice returns, to tell the cost of sending those bytes from the cost of Sluice's own work. Each such body is copied
 * into a slab first, as Sluice's are ({@link BodySlabs#lease}: Jetty's HTTP/2 flusher copies it then, instead of listing
 * it; the slab is used again once its bodies are written).
 *
 * Run from the repository root, with the server jar built:
 *   java [-Dceiling.getBytes=N] -cp http-server/target/sluice-server.jar bench/ceiling/CeilingServer.java \
 *        PORT [TLS_PORT KEY.pem CERT.pem]
 */
public class CeilingServer {

    static final class Fixed extends Handler.Abstract.NonBlocking {
        private static final PreEncodedHttpField contentType = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/json; charset=UTF-8");
        private static final String REPLY = "{\"pathId\":\"/document/v1/ns/music/docid/1\",\"id\":\"id:ns:music::1\"}";
        private final ByteBuffer body = ByteBuffer.wrap(REPLY.getBytes(StandardCharsets.UTF_8)).asReadOnlyBuffer();
        private final byte[] getBody = getBody(Integer.parseInt(System.getProperty("ceiling.getBytes", "0")));

        /** An N-byte body, {@code REPLY} with a text field padded to length; null if N is 0. */
        private static byte[] getBody(int bytes) {
            if (bytes == 0) return null;
            String start = REPLY.substring(0, REPLY.length() - 1) + ",\"fields\":{\"text\":\"", end = "\"}}";
            if (bytes < start.length() + end.length())
                throw new IllegalArgumentException("ceiling.getBytes must be 0 or at least "
                                                   + (start.length() + end.length()));
            String json = start + "x".repeat(bytes - start.length() - end.length()) + end;
            return json.getBytes(StandardCharsets.UTF_8);
        }

        /**
         * Reads the request body to its end first, as any server that uses it must. Answering a POST before its body
         * is read makes Jetty reset the HTTP/2 stream to stop the rest of the upload, and h2load counts such streams
         * as errors (a smoke run saw 441 of 507 POSTs on one h2c connection fail that way).
         */
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            boolean get = getBody != null && HttpMethod.GET.is(request.getMethod());
            if ( ! get) {
                ByteBuffer answer = body.slice();
                Content.Source.consumeAll(request, Callback.from(() -> answer(response, answer, callback), callback::failed));
                return true;
            }
            BodySlabs.Lease lease = BodySlabs.lease(getBody.length); // as Sluice's bodies: released once written
            System.arraycopy(getBody, 0, lease.buffer().array(), lease.buffer().position(), getBody.length);
            Callback written = Callback.from(callback.getInvocationType(), () -> { lease.release(); callback.succeeded(); },
                                             failure -> { lease.release(); callback.failed(failure); });
            Content.Source.consumeAll(request, Callback.from(() -> answer(response, lease.buffer(), written), written::failed));
            return true;
        }

        private void answer(Response response, ByteBuffer answer, Callback callback) {
            response.setStatus(200);
            response.getHeaders().put(contentType);
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, answer.remaining());
            response.write(true, answer, callback);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1 && args.length != 4) {
            System.err.println("Usage: CeilingServer PORT [TLS_PORT KEY.pem CERT.pem]");
            System.exit(2);
        }
        int threads = 16 + Runtime.getRuntime().availableProcessors();
        var pool = new QueuedThreadPool(threads, threads);
        pool.setName("ceiling");
        var server = new Server(pool);
        Duration stopTimeout = Duration.ofSeconds(5);
        server.addConnector(Connectors.create(server, ServerConfig.cleartext("plain", Integer.parseInt(args[0])), Optional.empty(),
                                              Optional.empty(), stopTimeout));
        if (args.length == 4) {
            var ssl = new SslConfig(Path.of(args[2]), Path.of(args[3]), Optional.empty(), SslConfig.ClientAuthentication.DISABLED,
                                    List.of(), List.of());
            var config = new ServerConfig("tls", Integer.parseInt(args[1]), Optional.of(ssl), ConnectorConfig.defaults());
            server.addConnector(Connectors.create(server, config, Optional.empty(), Optional.of(TlsContextFactories.create(ssl)), stopTimeout));
        }
        server.setHandler(new Fixed());
        server.setStopAtShutdown(true);
        server.start();
        System.out.println("Ceiling listening on port " + args[0] + (args.length == 4 ? " and TLS port " + args[1] : ""));
        server.join();
    }

}
