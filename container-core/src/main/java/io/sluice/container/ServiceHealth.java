package io.sluice.container;

import java.util.Locale;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Whether the container is in rotation: {@code initializing} until started, {@code up} while serving,
 * {@code down} while stopping. Read by {@code /state/v1/health} and {@code /status.html}.
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

    public Status status() {
        return status.get();
    }

    /** Marks the container as serving. */
    public void up() {
        status.set(Status.UP);
    }

    /** Marks the container as leaving rotation; final. */
    public void down() {
        status.set(Status.DOWN);
    }

}
