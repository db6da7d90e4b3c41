package io.sluice.container.document;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntConsumer;
import java.util.function.LongConsumer;

/**
 * One request/response pair whose response is sent exactly once, whoever gets there first: the operation's outcome,
 * the deadline timer, or a failure. Everything that ends a request goes through {@link #respond} or
 * {@link #takeOver}; both return {@code false} to a latecomer, which must then do nothing. Thread-safe.
 */
public final class Exchange {

    /** The content type of every JSON response. */
    public static final String JSON = "application/json; charset=UTF-8";
    private static final HttpField CONTENT_TYPE = new HttpField(HttpHeader.CONTENT_TYPE, JSON);

    private final Request request;
    private final Response response;
    private final Callback callback;
    private final AtomicBoolean done = new AtomicBoolean();
    private final LongConsumer bodyBytes;
    private final List<IntConsumer> completionListeners = new ArrayList<>();
    private final List<Runnable> completionHooks = new ArrayList<>();
    private boolean callbackCompleted = false; // guarded by completionHooks

    public Exchange(Request request, Response response, Callback callback) {
        this(request, response, callback, bytes -> { });
    }

    /** An exchange that reports the body size of a response sent by {@link #respond} to {@code bodyBytes}. */
    public Exchange(Request request, Response response, Callback callback, LongConsumer bodyBytes) {
        this.request = request;
        this.response = response;
        this.callback = new Callback.Nested(callback) {
            @Override
            public void completed() {
                List<Runnable> hooks;
                synchronized (completionHooks) {
                    callbackCompleted = true;
                    hooks = List.copyOf(completionHooks);
                    completionHooks.clear();
                }
                hooks.forEach(Runnable::run);
            }
        };
        this.bodyBytes = bodyBytes;
    }

    public Request request() {
        return request;
    }

    /**
     * Registers {@code listener} to run with the status when the response is decided (by {@link #respond} or
     * {@link #takeOver}); runs it at once if already decided.
     */
    public void whenDone(IntConsumer listener) {
        synchronized (completionListeners) {
            if ( ! done.get()) {
                completionListeners.add(listener);
                return;
            }
        }
        listener.accept(response.getStatus());
    }

    /**
     * Registers {@code hook} to run when the request's callback completes (the response fully sent, or failed), which
     * for a streamed response is long after it was decided; runs it at once if already completed.
     */
    public void whenCompleted(Runnable hook) {
        synchronized (completionHooks) {
            if ( ! callbackCompleted) {
                completionHooks.add(hook);
                return;
            }
        }
        hook.run();
    }

    /** Whether the response has been decided. */
    public boolean isDone() {
        return done.get();
    }

    /**
     * Sends a whole JSON response, unless one was already decided.
     *
     * @return whether this call sent the response
     */
    public boolean respond(int status, byte[] body, Map<String, String> headers) {
        if ( ! claim(status))
            return false;
        response.setStatus(status);
        headers.forEach((name, value) -> response.getHeaders().put(name, value));
        if (body.length == 0) {
            callback.succeeded();
            return true;
        }
        response.getHeaders().put(CONTENT_TYPE);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        bodyBytes.accept(body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }

    /** {@link #respond(int, byte[], Map)} without extra headers. */
    public boolean respond(int status, byte[] body) {
        return respond(status, body, Map.of());
    }

    /**
     * Claims the response for a caller that writes it itself, e.g. a streamed visit. On {@code true} the caller owns
     * {@link #response()} and {@link #callback()}, must set {@code status} and complete the callback exactly once;
     * the deadline timer will no longer answer.
     */
    public boolean takeOver(int status) {
        if ( ! claim(status))
            return false;
        response.setStatus(status);
        return true;
    }

    /** The response; write to it only after a successful {@link #takeOver}. */
    public Response response() {
        return response;
    }

    /** The request's callback; complete it only after a successful {@link #takeOver}. */
    public Callback callback() {
        return callback;
    }

    private boolean claim(int status) {
        List<IntConsumer> listeners;
        synchronized (completionListeners) {
            if ( ! done.compareAndSet(false, true))
                return false;
            listeners = List.copyOf(completionListeners);
            completionListeners.clear();
        }
        for (IntConsumer listener : listeners)
            listener.accept(status);
        return true;
    }

}
