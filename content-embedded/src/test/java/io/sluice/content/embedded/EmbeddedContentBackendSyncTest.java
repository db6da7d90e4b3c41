package io.sluice.content.embedded;

import io.sluice.content.ContentBackend;
import io.sluice.content.ContentBackendConformanceTest;
import io.sluice.content.ManualClock;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** The conformance suite against the embedded store fsyncing every write with group commit. */
class EmbeddedContentBackendSyncTest extends ContentBackendConformanceTest {

    @TempDir(factory = MemoryBackedTempDir.class)
    Path directory;

    @Override
    protected ContentBackend createBackend(ManualClock clock) {
        return EmbeddedContentBackend.open(EmbeddedContentBackendTest.options(directory, clock)
                                                                     .durability(Durability.SYNC).build());
    }

    /** Plain puts and removes are written without reading the previous version (see {@code StoreOperations}). */
    @Override
    protected boolean readsBeforePlainWrites() {
        return false;
    }

}
