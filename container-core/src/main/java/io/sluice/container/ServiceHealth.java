package io.sluice.container;

import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Whether the container is in rotation: {@code initializing} until started, {@code up} while serving,
 * {@code down} while stopping, and {@code down} while serving if a watched part has failed (e.g. a content engine
 * that can no longer write), with that part's {@link #message()}. Read by {@code /state/v1/health} and
 * {@code /status.html}.
 */
public final class ServiceHealth {

    public enum Status {
        INITIALIZING, UP, DOWN;

        /** The lower-case code used in {@code /state/v1/health}. */
        public String code() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final AtomicReference<Status> status = new AtomicReference<>(Status.INITIALIZING);
    private final List<Supplier<Optional<String>>> failures = new CopyOnWriteArrayList<>();
    private final List<Supplier<Optional<String>>> conditions = new CopyOnWriteArrayList<>();

    /** {@code down} if a watched part reports a failure while the container is otherwise {@code up}. */
    public Status status() {
        Status base = status.get();
        return base == Status.UP && failure().isPresent() ? Status.DOWN : base;
    }

    /**
     * While serving: why the container is {@code down}, the first failure a watched part reports; else what keeps it
     * from serving everything while it stays {@code up}, the first condition a noted part reports (writes refused for
     * lack of space, say); else empty.
     */
    public Optional<String> message() {
        if (status.get() != Status.UP)
            return Optional.empty();
        Optional<String> failure = failure();
        return failure.isPresent() ? failure : first(conditions);
    }

    /**
     * Notes {@code condition}: while it reports one (and nothing watched failed), health stays {@code up} with that
     * message, as the container still serves. Asked on every health request: cheap, thread-safe, never throws.
     */
    public ServiceHealth note(Supplier<Optional<String>> condition) {
        conditions.add(Objects.requireNonNull(condition, "condition"));
        return this;
    }

    /**
     * Watches {@code failure}: while it reports one, the container is {@code down} with that message. It is asked on
     * every health request, so it must be cheap, thread-safe and never throw.
     */
    public ServiceHealth watch(Supplier<Optional<String>> failure) {
        failures.add(Objects.requireNonNull(failure, "failure"));
        return this;
    }

    /** Marks the container as serving. */
    public void up() {
        status.set(Status.UP);
    }

    /** Marks the container as leaving rotation; final. */
    public void down() {
        status.set(Status.DOWN);
    }

    private Optional<String> failure() {
        return first(failures);
    }

    private static Optional<String> first(List<Supplier<Optional<String>>> checks) {
        for (Supplier<Optional<String>> check : checks) {
            Optional<String> failure = check.get();
            if (failure.isPresent())
                return failure;
        }
        return Optional.empty();
    }

}
