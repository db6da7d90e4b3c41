package io.sluice.feed;

import java.util.Map;

/**
 * A snapshot of what the client sent and received since it was built or its stats were reset.
 *
 * @param requests attempts sent, retries included
 * @param responses responses received
 * @param responsesByCode responses per HTTP status, in status order
 * @param exceptions attempts that failed without a response
 * @param inflight operations in flight (distinct document ids)
 * @param bytesSent uncompressed request body bytes of attempts that got a response
 * @param bytesReceived response body bytes
 * @param latency response latency over all responses, in milliseconds
 */
public record OperationStats(long requests, long responses, Map<Integer, Long> responsesByCode, long exceptions,
                             long inflight, long bytesSent, long bytesReceived, Latency latency) {

    public OperationStats {
        responsesByCode = Map.copyOf(responsesByCode);
    }

    /** Responses other than 200; 412 and 429 included, as in the official client. */
    public long errorResponses() {
        return responses - responsesByCode.getOrDefault(200, 0L);
    }

    /**
     * Latency summary in milliseconds; all zero when nothing was measured. Percentiles come from a log-linear
     * histogram and are exact to within about 3%.
     */
    public record Latency(double min, double avg, double max, double p50, double p90, double p99, double p999) {
        public static final Latency NONE = new Latency(0, 0, 0, 0, 0, 0, 0);
    }

}
