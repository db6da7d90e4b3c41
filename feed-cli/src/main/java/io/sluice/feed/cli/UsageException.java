package io.sluice.feed.cli;

/** Bad command line arguments; the message says which and why. */
final class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    UsageException(String message) { super(message); }

}
