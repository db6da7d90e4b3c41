package io.sluice.container.document;

import io.sluice.container.HttpStatusException;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@code /document/v1} request after routing and the parameter checks every route shares: its method, matched
 * path, parameters, deadline, trace, and the {@link Exchange} that answers it exactly once.
 *
 * <p>The deadline is {@code created + timeout} ({@code timeout} parameter, else the configured default). When it
 * passes without an answer, the handler answers 504 {@code Timeout after <n>ms} itself; work that finishes later
 * finds the exchange done and must drop its result.
 */
public final class DocumentRequest {

    /** How much earlier than the request's deadline backend operations must finish (spec §7.2). */
    public static final Duration BACKEND_MARGIN = Duration.ofMillis(100);

    private final String method;
    private final DocumentPath path;
    private final RequestParameters parameters;
    private final Exchange exchange;
    private final Instant created;
    private final Duration timeout;
    private final Trace trace;
    private final Instant deadline;
    private final Consumer<DocumentRequest> deadlineWatch;
    private volatile boolean watched = false;

    /**
     * @param deadlineWatch answers the request with 504 if it is still unanswered at its deadline, and ends it if its
     *                      client goes away first; called by {@link #watchDeadline}
     */
    public DocumentRequest(String method, DocumentPath path, RequestParameters parameters, Exchange exchange,
                           Instant created, Duration timeout, Trace trace, Consumer<DocumentRequest> deadlineWatch) {
        this.method = Objects.requireNonNull(method, "method");
        this.path = Objects.requireNonNull(path, "path");
        this.parameters = Objects.requireNonNull(parameters, "parameters");
        this.exchange = Objects.requireNonNull(exchange, "exchange");
        this.created = Objects.requireNonNull(created, "created");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.trace = Objects.requireNonNull(trace, "trace");
        this.deadline = created.plus(timeout);
        this.deadlineWatch = Objects.requireNonNull(deadlineWatch, "deadlineWatch");
    }

    /**
     * Has the request answered with 504 if it is still unanswered at its {@link #deadline}, and dropped if its client
     * goes away first; later calls do nothing. Whatever may keep a request waiting (its body, a backend call not done
     * when it returns, a visit) calls this first; an operation answered at once never needs it, and saves the
     * bookkeeping (spec §7.2).
     */
    public void watchDeadline() {
        if (watched)
            return;
        watched = true;
        deadlineWatch.accept(this);
    }

    /** GET, POST, PUT or DELETE. */
    public String method() {
        return method;
    }

    public DocumentPath path() {
        return path;
    }

    /** The raw path, the {@code pathId} of every response. */
    public String pathId() {
        return path.rawPath();
    }

    public RequestParameters parameters() {
        return parameters;
    }

    /** Answers the request; also gives the raw request, response and callback to a streamed visit. */
    public Exchange exchange() {
        return exchange;
    }

    /** When the handler received the request. */
    public Instant created() {
        return created;
    }

    /** The request's time budget. */
    public Duration timeout() {
        return timeout;
    }

    /** {@code created + timeout}: the handler answers 504 by then. */
    public Instant deadline() {
        return deadline;
    }

    /** The deadline for backend operations: {@link #BACKEND_MARGIN} before the request's. */
    public Instant backendDeadline() {
        return deadline().minus(BACKEND_MARGIN);
    }

    /** Notes for the response's {@code trace}, at the request's {@code tracelevel}. */
    public Trace trace() {
        return trace;
    }

    /** Sends {@code reply}, unless the request was already answered; returns whether it was sent. */
    public boolean respond(DocumentResponses.Reply reply) {
        return exchange.respond(reply.status(), reply.body(), reply.lease(), Map.of());
    }

    /** Sends {@code reply} with extra headers, unless the request was already answered. */
    public boolean respond(DocumentResponses.Reply reply, Map<String, String> headers) {
        return exchange.respond(reply.status(), reply.body(), reply.lease(), headers);
    }

    /** Answers {@code {"pathId","message"}} with the exception's status, unless already answered. */
    public boolean fail(HttpStatusException exception) {
        return respond(DocumentResponses.error(pathId(), exception));
    }

}
