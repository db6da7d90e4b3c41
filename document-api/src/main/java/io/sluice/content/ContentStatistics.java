package io.sluice.content;

/**
 * The names of the figures {@link ContentBackend#statistics()} reports. A backend reports those it can tell and
 * leaves out the rest; metrics export each as {@code content.<name>}.
 */
public final class ContentStatistics {

    /** Live documents, all bucket spaces; an estimate where the store only estimates it. */
    public static final String DOCUMENTS = "documents";
    /** Tombstones kept for removed documents. */
    public static final String TOMBSTONES = "tombstones";
    /** Bytes the stored documents take: compressed files on disk, or estimated object sizes in memory. */
    public static final String STORED_BYTES = "stored_bytes";
    /** Bytes of write-ahead log on disk, replayed if the process crashes now. */
    public static final String WAL_BYTES = "wal_bytes";
    /**
     * Writes to the write-ahead log since the backend opened, each carrying one or more operations (group commit); where
     * writes are fsynced before they are acknowledged, the fsyncs of the log.
     */
    public static final String WAL_WRITES = "wal_writes";
    /** Bytes of writes held in memory, not yet in the stored files. */
    public static final String MEMTABLE_BYTES = "memtable_bytes";
    /** Operations issued to the backend and not yet completed. */
    public static final String PENDING_OPERATIONS = "pending_operations";
    /** Reads of a stored document answered from the engine's cache of recently read documents, since it opened. */
    public static final String DOCUMENT_CACHE_HITS = "document_cache_hits";
    /** Reads of a stored document not in the engine's document cache (so read from the store), since it opened. */
    public static final String DOCUMENT_CACHE_MISSES = "document_cache_misses";
    /** Bytes the engine's document cache holds now. */
    public static final String DOCUMENT_CACHE_BYTES = "document_cache_bytes";
    /** 1 once the store refuses every write until restarted, after its storage failed (see
     * {@link ContentBackend#storageFailure()}); 0 while it writes. */
    public static final String WRITES_STOPPED = "writes_stopped";
    /** Seconds opening the store took, recovery from its log included. */
    public static final String RECOVERY_SECONDS = "recovery_seconds";

    private ContentStatistics() { }

}
