package io.sluice.content.embedded;

import io.sluice.document.DocumentTypes;
import io.sluice.content.ContentBackend;
import io.sluice.content.ContentBackendConformanceTest;
import io.sluice.content.ManualClock;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

/** The conformance suite against the embedded store acknowledging writes once they are in the log. */
class EmbeddedContentBackendTest extends ContentBackendConformanceTest {

    static final DocumentTypes TYPES = DocumentTypes.of(List.of(MUSIC, ARTIST));

    @TempDir(factory = MemoryBackedTempDir.class)
    Path directory;

    @Override
    protected ContentBackend createBackend(ManualClock clock) {
        return EmbeddedContentBackend.open(options(directory, clock).durability(Durability.LOG).build());
    }

    /** Small memory, no disk check (CI disks vary), a fast pool: what the tests of this package share. */
    static EmbeddedOptions.Builder options(Path directory, ManualClock clock) {
        return EmbeddedOptions.builder(directory, TYPES)
                              .clock(clock)
                              .blockCacheBytes(8 << 20)
                              .writeBufferBytes(8 << 20)
                              .minFreeDiskBytes(0)
                              .threads(2);
    }

    /** Plain puts and removes are written without reading the previous version (see {@code StoreOperations}). */
    @Override
    protected boolean readsBeforePlainWrites() {
        return false;
    }

}
