package io.sluice.feed;

/** Request body compression. */
public enum Compression {
    /** gzip bodies larger than 512 bytes. */
    AUTO,
    /** Never compress. */
    NONE,
    /** Always gzip. */
    GZIP
}
