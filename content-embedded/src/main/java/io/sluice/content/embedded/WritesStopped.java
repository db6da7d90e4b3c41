package io.sluice.content.embedded;

import org.rocksdb.RocksDBException;

import java.util.Objects;

/**
 * Why the store writes nothing any more: RocksDB failed to write or fsync its write-ahead log ({@link #cause()}).
 * After a failed fsync the kernel may have dropped the unsynced pages and reported the error only once, so a later
 * fsync that succeeds proves nothing about what the failed one covered (PostgreSQL's "fsyncgate"); and RocksDB
 * 11.8.1, after a no-space error of the log's fsync, resumes writing by itself within milliseconds. So the engine
 * stops at the first such failure and stays stopped until restarted, when it recovers from the log on disk.
 *
 * <p>A write refused with this was not applied: it never reached RocksDB.
 */
final class WritesStopped extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient RocksDBException failure;

    WritesStopped(RocksDBException failure) {
        super(describe(failure), failure, false, false); // one shared instance: no stack trace to fill
        this.failure = Objects.requireNonNull(failure, "failure");
    }

    /** The failure of the log that stopped the writes. */
    RocksDBException failure() {
        return failure;
    }

    /** What a client and the health endpoint are told. */
    static String describe(RocksDBException failure) {
        return "the embedded store stopped accepting writes after its write-ahead log failed (" + failure.getMessage()
               + "); what was acknowledged before is in the log: restart Sluice to recover from it";
    }

}
