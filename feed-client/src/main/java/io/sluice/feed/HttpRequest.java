package io.sluice.feed;

/**
 * One operation as HTTP: the method, the path with its query (without {@code timeout}, which is added per attempt
 * from the time left), the body as it goes on the wire, and the operation's deadline on the {@link Scheduler} clock.
 *
 * @param bodySize the uncompressed body size, for stats
 */
record HttpRequest(String method, String pathAndQuery, byte[] body, boolean gzipped, int bodySize,
                   long deadlineNanos) {

    static final byte[] NO_BODY = new byte[0];

}
