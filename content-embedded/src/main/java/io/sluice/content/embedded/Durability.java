package io.sluice.content.embedded;

/** When the embedded store acknowledges a write. */
public enum Durability {

    /**
     * Once the write is in the write-ahead log in the operating system's buffers: survives a crash (even SIGKILL)
     * of the process, not a power loss or a kernel crash, which may lose the last seconds of acknowledged writes.
     * {@code sync="false"}: an explicit choice, never the default.
     */
    LOG,

    /**
     * Once the write-ahead log holding the write is fsynced: survives power loss, as a Vespa content node's
     * acknowledgement does. Concurrent writes share one fsync (group commit), so throughput grows with concurrency
     * while each write waits for a disk flush. The default.
     */
    SYNC

}
