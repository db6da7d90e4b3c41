package io.sluice.feed;

/** Request body compression. */
public enum Compression {
    /**
     * gzip bodies larger than 512 bytes, except to an endpoint on this machine (a loopback address or
     * {@code localhost}): bandwidth costs nothing there, and compressing costs CPU twice, in the client that deflates
     * and the server that inflates, on the same cores.
     */
    AUTO,
    /** Never compress. */
    NONE,
    /** Always gzip. */
    GZIP
}
