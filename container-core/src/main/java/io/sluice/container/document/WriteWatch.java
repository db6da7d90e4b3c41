package io.sluice.container.document;

/**
 * Told when a response's writes start and end, so that a response whose client stopped reading (its write never
 * completes) can be found. Calls alternate: {@link #writing} before a write, {@link #written} when it completed or
 * failed.
 */
interface WriteWatch {

    /** Watches nothing. */
    WriteWatch NONE = new WriteWatch() {
        @Override public void writing() { }
        @Override public void written() { }
    };

    /** A write of the response starts. */
    void writing();

    /** That write completed, or failed. */
    void written();

}
