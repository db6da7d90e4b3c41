package io.sluice.content.cassandra;

/** A {@code <cassandra>} engine option that is unknown or has a bad value; the message names it. */
public final class InvalidCassandraOptionException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    public InvalidCassandraOptionException(String message) {
        super(message);
    }

}
