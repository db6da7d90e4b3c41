package io.sluice.feed;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Per-operation parameters, sent as query parameters. Immutable; the withers return a copy.
 */
public final class OperationParameters {

    private static final OperationParameters EMPTY = new OperationParameters(false, null, null, null, 0);

    private final boolean create;
    private final String condition;
    private final Duration timeout;
    private final String route;
    private final int tracelevel;

    private OperationParameters(boolean create, String condition, Duration timeout, String route, int tracelevel) {
        this.create = create;
        this.condition = condition;
        this.timeout = timeout;
        this.route = route;
        this.tracelevel = tracelevel;
    }

    /** No parameters: no condition, no create, the client's default timeout. */
    public static OperationParameters empty() { return EMPTY; }

    /** Sets {@code create=true}: create the document if it does not exist (put and update). */
    public OperationParameters createIfNonExistent(boolean create) {
        return new OperationParameters(create, condition, timeout, route, tracelevel);
    }

    /** Sets a test-and-set condition (a document selection). */
    public OperationParameters testAndSetCondition(String condition) {
        if (Objects.requireNonNull(condition, "condition").isEmpty())
            throw new IllegalArgumentException("Condition must be non-empty");
        return new OperationParameters(create, condition, timeout, route, tracelevel);
    }

    /** Sets the total time budget of the operation, retries included. */
    public OperationParameters timeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero())
            throw new IllegalArgumentException("Timeout must be positive, but was " + timeout);
        return new OperationParameters(create, condition, timeout, route, tracelevel);
    }

    /** Sets the message bus route. */
    public OperationParameters route(String route) {
        if (Objects.requireNonNull(route, "route").isEmpty())
            throw new IllegalArgumentException("Route must be non-empty");
        return new OperationParameters(create, condition, timeout, route, tracelevel);
    }

    /** Sets the trace level, 1 to 9. */
    public OperationParameters tracelevel(int tracelevel) {
        if (tracelevel < 1 || tracelevel > 9)
            throw new IllegalArgumentException("Trace level must be in [1, 9], but was " + tracelevel);
        return new OperationParameters(create, condition, timeout, route, tracelevel);
    }

    public boolean createIfNonExistent() { return create; }
    public Optional<String> testAndSetCondition() { return Optional.ofNullable(condition); }
    public Optional<Duration> timeout() { return Optional.ofNullable(timeout); }
    public Optional<String> route() { return Optional.ofNullable(route); }
    public OptionalInt tracelevel() { return tracelevel == 0 ? OptionalInt.empty() : OptionalInt.of(tracelevel); }

    @Override public boolean equals(Object o) {
        if ( ! (o instanceof OperationParameters)) return false;
        OperationParameters other = (OperationParameters) o;
        return create == other.create && tracelevel == other.tracelevel && Objects.equals(condition, other.condition)
               && Objects.equals(timeout, other.timeout) && Objects.equals(route, other.route);
    }

    @Override public int hashCode() { return Objects.hash(create, condition, timeout, route, tracelevel); }

    @Override public String toString() {
        return "OperationParameters{create=" + create + ", condition=" + condition + ", timeout=" + timeout +
               ", route=" + route + ", tracelevel=" + tracelevel + "}";
    }

}
