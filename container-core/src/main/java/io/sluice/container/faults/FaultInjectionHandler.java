package io.sluice.container.faults;

import io.sluice.container.HttpStatusException;
import io.sluice.container.JsonResponses;
import io.sluice.container.document.DocumentPath;
import io.sluice.container.document.DocumentResponses;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.io.EofException;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Wraps the {@code /document/v1} handler and gives a share of its requests a fault instead of their answer
 * ({@link Faults}): 429 with Vespa's overload message, 503, 504 or 507 with a Vespa-shaped JSON body, a delay before
 * the request is handled (scheduled, no thread waits), or a dropped answer (HTTP/1.1 closes the connection, HTTP/2
 * resets the stream). A request that gets a status or a drop never reaches the wrapped handler, so it changes nothing
 * stored; its body is left unread.
 */
public final class FaultInjectionHandler extends Handler.Wrapper {

    private static final Logger log = LoggerFactory.getLogger(FaultInjectionHandler.class);

    /** Runs a task after a delay, off the calling thread. */
    @FunctionalInterface
    public interface Delayer {

        /** Runs {@code task} on an executor after {@code millis} ms; never blocks. */
        void schedule(Request request, long millis, Runnable task);

        /** Jetty's scheduler, handing the task to the server's executor when the delay has passed. */
        static Delayer jetty() {
            return (request, millis, task) -> request.getComponents().getScheduler().schedule(
                    () -> request.getComponents().getExecutor().execute(task), millis, TimeUnit.MILLISECONDS);
        }

    }

    private final Faults faults;
    private final Delayer delayer;

    public FaultInjectionHandler(Faults faults, Delayer delayer, Handler handler) {
        super(handler);
        this.faults = Objects.requireNonNull(faults, "faults");
        this.delayer = Objects.requireNonNull(delayer, "delayer");
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        FaultPlan plan = faults.plan();
        Optional<String> type = Optional.empty();
        Optional<String> id = Optional.empty();
        if (plan.needsPath()) {
            try {
                DocumentPath path = DocumentPath.parse(request.getHttpURI().getPath());
                type = path.documentType();
                if ( ! path.route().isSelection())
                    id = Optional.of(path.documentId().toString());
            }
            catch (HttpStatusException e) {
                // A path the handler will refuse: it matches rules without a type or id only, and gets its 4xx below.
            }
        }
        Optional<FaultRule> rule = faults.draw(plan, request.getMethod(), type, id);
        if (rule.isEmpty())
            return super.handle(request, response, callback);
        FaultRule.Fault fault = rule.get().fault();
        switch (fault.kind()) {
            case DELAY:
                delayer.schedule(request, fault.delayMillis(), () -> handleLater(request, response, callback));
                return true;
            case DROP:
                drop(request, response, callback);
                return true;
            default:
                String pathId = request.getHttpURI().getPath();
                JsonResponses.send(response, callback, fault.kind().status(),
                                   DocumentResponses.error(pathId, fault.kind().status(), message(rule.get())).bytes());
                return true;
        }
    }

    /** Vespa's texts for these statuses, marked as injected so that a log reader is not misled. */
    static String message(FaultRule rule) {
        String injected = " (fault injected by Sluice: " + rule + ")";
        switch (rule.fault().kind()) {
            case OVERLOAD: return "Rejecting execution due to overload" + injected;
            case UNAVAILABLE: return "Service unavailable" + injected;
            case TIMEOUT: return "Timed out" + injected;
            case INSUFFICIENT_STORAGE: return "External feed is blocked due to resource exhaustion" + injected;
            default: throw new IllegalArgumentException("fault '" + rule.fault() + "' has no status");
        }
    }

    /** The wrapped handler's answer, after a delay: on an executor thread, so any failure completes the callback. */
    private void handleLater(Request request, Response response, Callback callback) {
        try {
            if ( ! super.handle(request, response, callback))
                JsonResponses.error(response, callback, HttpStatus.NOT_FOUND_404, "Nothing at " + request.getHttpURI().getPath());
        }
        catch (Throwable e) {
            log.warn("Handling a delayed request failed", e);
            callback.failed(e);
        }
    }

    /**
     * No answer. Over HTTP/1 the connection closes before anything is written. Over HTTP/2 the response is committed
     * and then failed, which makes Jetty reset the stream and leave the connection's other streams alone.
     */
    private static void drop(Request request, Response response, Callback callback) {
        EofException dropped = new EofException("dropped by an injected fault");
        if (request.getConnectionMetaData().getHttpVersion() == HttpVersion.HTTP_2) {
            response.setStatus(HttpStatus.OK_200);
            response.write(false, null, Callback.from(() -> callback.failed(dropped), callback::failed));
        }
        else {
            request.getConnectionMetaData().getConnection().getEndPoint().close();
            callback.failed(dropped);
        }
    }

}
