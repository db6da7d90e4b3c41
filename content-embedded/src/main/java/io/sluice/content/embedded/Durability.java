package io.sluice.content.embedded;

/** When the embedded store acknowledges a write. */
public enum Durability {

    /**
     * Once the write is in the write-ahead log in the operating system's buffers: survives a crash (even SIGKILL)
     * of the process, not of the machine. The default.
     */
    LOG,

    /**
     * Once the write-ahead log holding the write is fsynced: survives power loss. Concurrent writes share one fsync
     * (group commit), so throughput grows with concurrency while each write waits for a disk flush.
     */
    SYNC

}
