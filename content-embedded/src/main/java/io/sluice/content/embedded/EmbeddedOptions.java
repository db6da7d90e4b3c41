package io.sluice.content.embedded;

import io.sluice.content.SystemUtcClock;
import io.sluice.document.DocumentTypes;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * How to open an {@link EmbeddedContentBackend}: where its data lives, how durable writes are, and how much memory
 * and disk it may use. Immutable; made with {@link #builder}. The defaults suit a 2-core machine.
 */
public final class EmbeddedOptions {

    private static final long DEFAULT_DOCUMENT_CACHE_BYTES = 64L << 20;

    private final Path dataDirectory;
    private final DocumentTypes documentTypes;
    private final Durability durability;
    private final Duration tombstoneRetention;
    private final Duration tombstoneSweepInterval;
    private final long blockCacheBytes;
    private final long documentCacheBytes;
    private final long writeBufferBytes;
    private final long minFreeDiskBytes;
    private final Clock clock;
    private final int distributionBits;
    private final int threads;
    private final int maxPendingOperations;

    private EmbeddedOptions(Builder builder) {
        this.dataDirectory = builder.dataDirectory;
        this.documentTypes = builder.documentTypes;
        this.durability = builder.durability;
        this.tombstoneRetention = builder.tombstoneRetention;
        this.tombstoneSweepInterval = builder.tombstoneSweepInterval;
        this.blockCacheBytes = builder.blockCacheBytes;
        this.documentCacheBytes = builder.documentCacheBytes;
        this.writeBufferBytes = builder.writeBufferBytes;
        this.minFreeDiskBytes = builder.minFreeDiskBytes;
        this.clock = builder.clock;
        this.distributionBits = builder.distributionBits;
        this.threads = builder.threads;
        this.maxPendingOperations = builder.maxPendingOperations;
    }

    /**
     * A builder for a store in {@code dataDirectory} (created if missing) holding documents of {@code types}, with
     * {@link Durability#SYNC}, 14 days tombstone retention, a 64 MiB block cache, a document cache of
     * {@link #defaultDocumentCacheBytes} of this JVM's heap for one store, 64 MiB of write buffers, writes refused
     * below 1 GiB free disk, the system UTC clock and 16 distribution bits.
     */
    public static Builder builder(Path dataDirectory, DocumentTypes types) {
        return new Builder(dataDirectory, types);
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** The types stored documents are decoded with. */
    public DocumentTypes documentTypes() {
        return documentTypes;
    }

    public Durability durability() {
        return durability;
    }

    /** How long a tombstone is kept (and returned by visits with removes) before it may be removed. */
    public Duration tombstoneRetention() {
        return tombstoneRetention;
    }

    /** How often expired tombstones are looked for and deleted. */
    public Duration tombstoneSweepInterval() {
        return tombstoneSweepInterval;
    }

    /** Size of the block cache of data, index and filter blocks, shared by every column family. */
    public long blockCacheBytes() {
        return blockCacheBytes;
    }

    /**
     * Most bytes of the cache of recently read documents' stored values, on the JVM's heap, in front of the store
     * ({@link DocumentCache}); 0 for none.
     */
    public long documentCacheBytes() {
        return documentCacheBytes;
    }

    /**
     * The document cache of each of {@code stores} stores in a JVM whose heap may grow to {@code heapBytes}, when not
     * configured: together a sixteenth of the heap, at most 64 MiB.
     */
    public static long defaultDocumentCacheBytes(long heapBytes, int stores) {
        return Math.min(DEFAULT_DOCUMENT_CACHE_BYTES, Math.max(0, heapBytes) / 16) / Math.max(1, stores);
    }

    /** Most memory all memtables together may use before they are flushed. */
    public long writeBufferBytes() {
        return writeBufferBytes;
    }

    /** Puts and updates fail with INSUFFICIENT_STORAGE while the data directory's file system has less free space. */
    public long minFreeDiskBytes() {
        return minFreeDiskBytes;
    }

    /** The clock for timestamps, deadlines, tombstone expiry and {@code now()} in selections. */
    public Clock clock() {
        return clock;
    }

    public int distributionBits() {
        return distributionBits;
    }

    /** Threads running store reads and writes. */
    public int threads() {
        return threads;
    }

    /** Most operations issued but not completed; one more answers OVERLOAD at once. */
    public int maxPendingOperations() {
        return maxPendingOperations;
    }

    @Override
    public String toString() {
        return "embedded store at " + dataDirectory + " (" + promise(durability) + ", tombstones kept " + tombstoneRetention
               + ", block cache " + blockCacheBytes + " B, document cache " + documentCacheBytes
               + " B, write buffers " + writeBufferBytes + " B, min free disk " + minFreeDiskBytes + " B)";
    }

    private static String promise(Durability durability) {
        return durability == Durability.SYNC
               ? "sync=\"true\": a write is fsynced before it is acknowledged, survives power loss"
               : "sync=\"false\": a write is acknowledged before it is fsynced, survives a process crash, not a power loss";
    }

    /** Collects {@link EmbeddedOptions}; every setter names the bad value it rejects. Not thread-safe. */
    public static final class Builder {

        private static final long MIB = 1L << 20;

        private final Path dataDirectory;
        private final DocumentTypes documentTypes;
        private Durability durability = Durability.SYNC;
        private Duration tombstoneRetention = Duration.ofDays(14);
        private Duration tombstoneSweepInterval = Duration.ofMinutes(10);
        private long blockCacheBytes = 64 * MIB;
        private long documentCacheBytes = defaultDocumentCacheBytes(Runtime.getRuntime().maxMemory(), 1);
        private long writeBufferBytes = 64 * MIB;
        private long minFreeDiskBytes = 1024 * MIB;
        private Clock clock = SystemUtcClock.instance();
        private int distributionBits = 16;
        private int threads = Math.max(2, Math.min(4, Runtime.getRuntime().availableProcessors()));
        private int maxPendingOperations = 8192;

        private Builder(Path dataDirectory, DocumentTypes documentTypes) {
            this.dataDirectory = Objects.requireNonNull(dataDirectory, "dataDirectory");
            this.documentTypes = Objects.requireNonNull(documentTypes, "documentTypes");
        }

        public Builder durability(Durability durability) {
            this.durability = Objects.requireNonNull(durability, "durability");
            return this;
        }

        public Builder tombstoneRetention(Duration retention) {
            if (retention.isNegative()) {
                throw new IllegalArgumentException("tombstoneRetention must not be negative, but was " + retention);
            }
            this.tombstoneRetention = retention;
            return this;
        }

        public Builder tombstoneSweepInterval(Duration interval) {
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("tombstoneSweepInterval must be positive, but was " + interval);
            }
            this.tombstoneSweepInterval = interval;
            return this;
        }

        /** At least 1 MiB. */
        public Builder blockCacheBytes(long bytes) {
            this.blockCacheBytes = atLeast("blockCacheBytes", bytes, MIB);
            return this;
        }

        /** 0 for no document cache. */
        public Builder documentCacheBytes(long bytes) {
            this.documentCacheBytes = atLeast("documentCacheBytes", bytes, 0);
            return this;
        }

        /** At least 1 MiB. */
        public Builder writeBufferBytes(long bytes) {
            this.writeBufferBytes = atLeast("writeBufferBytes", bytes, MIB);
            return this;
        }

        /** 0 turns the check off. */
        public Builder minFreeDiskBytes(long bytes) {
            this.minFreeDiskBytes = atLeast("minFreeDiskBytes", bytes, 0);
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock, "clock");
            return this;
        }

        /** 1..32; must stay the same for a data directory, or progress tokens of earlier visits are rejected. */
        public Builder distributionBits(int distributionBits) {
            if (distributionBits < 1 || distributionBits > 32) {
                throw new IllegalArgumentException("distributionBits must be in [1, 32], but was " + distributionBits);
            }
            this.distributionBits = distributionBits;
            return this;
        }

        public Builder threads(int threads) {
            this.threads = (int) atLeast("threads", threads, 1);
            return this;
        }

        public Builder maxPendingOperations(int maxPendingOperations) {
            this.maxPendingOperations = (int) atLeast("maxPendingOperations", maxPendingOperations, 1);
            return this;
        }

        /**
         * Applies the options of a services.xml {@code <embedded/>} engine element: {@code sync},
         * {@code tombstone-retention}, {@code block-cache}, {@code document-cache}, {@code write-buffers},
         * {@code min-free-disk}, {@code threads} and {@code max-pending}; sizes like {@code 64m}, durations like
         * {@code 14d} or {@code PT1H}.
         *
         * @throws IllegalArgumentException naming the option and value if an option is unknown or its value bad
         */
        public Builder engineOptions(Map<String, String> options) {
            EngineOptions.apply(options, this);
            return this;
        }

        private static long atLeast(String name, long value, long minimum) {
            if (value < minimum) {
                throw new IllegalArgumentException(name + " must be at least " + minimum + ", but was " + value);
            }
            return value;
        }

        public EmbeddedOptions build() {
            return new EmbeddedOptions(this);
        }

    }

}
