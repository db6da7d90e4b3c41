package io.sluice.content.embedded;

import io.sluice.document.DocumentTypes;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineOptionsTest {

    private static EmbeddedOptions withOptions(Map<String, String> options) {
        return EmbeddedOptions.builder(Path.of("data"), DocumentTypes.of(List.of())).engineOptions(options).build();
    }

    @Test
    void noSyncOption_fsyncsBeforeAcknowledging() {
        EmbeddedOptions options = withOptions(Map.of());

        assertEquals(Durability.SYNC, options.durability());
        assertTrue(options.toString().contains("fsynced before it is acknowledged"), options.toString());
    }

    @Test
    void sync_false_saysItDoesNotSurvivePowerLoss() {
        assertTrue(withOptions(Map.of("sync", "false")).toString().contains("not a power loss"));
    }

    @Test
    void sync_true_choosesSyncDurability() {
        assertEquals(Durability.SYNC, withOptions(Map.of("sync", "true")).durability());
    }

    @Test
    void sync_false_choosesLogDurability() {
        assertEquals(Durability.LOG, withOptions(Map.of("sync", "false")).durability());
    }

    @Test
    void sizes_acceptBinarySuffixes() {
        EmbeddedOptions options = withOptions(Map.of("block-cache", "128m", "write-buffers", "2G",
                                                     "min-free-disk", "512k", "document-cache", "32m"));

        assertEquals(128L << 20, options.blockCacheBytes());
        assertEquals(32L << 20, options.documentCacheBytes());
        assertEquals(2L << 30, options.writeBufferBytes());
        assertEquals(512L << 10, options.minFreeDiskBytes());
    }

    @Test
    void documentCache_zeroTurnsItOff_negativeIsRefused() {
        assertEquals(0, withOptions(Map.of("document-cache", "0")).documentCacheBytes());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                                  () -> withOptions(Map.of("document-cache", "-1m")));
        assertEquals("Embedded engine option document-cache='-1m' is invalid: documentCacheBytes must be at least 0, "
                     + "but was -1048576", e.getMessage());
    }

    @Test
    void documentCache_byDefault_isASixteenthOfTheHeap_atMost64MiB_sharedByTheStores() {
        assertEquals(64L << 20, EmbeddedOptions.defaultDocumentCacheBytes(8L << 30, 1));
        assertEquals(32L << 20, EmbeddedOptions.defaultDocumentCacheBytes(512L << 20, 1));
        assertEquals(16L << 20, EmbeddedOptions.defaultDocumentCacheBytes(512L << 20, 2));
    }

    @Test
    void tombstoneRetention_acceptsUnitsAndIso() {
        assertEquals(Duration.ofDays(3), withOptions(Map.of("tombstone-retention", "3d")).tombstoneRetention());
        assertEquals(Duration.ofHours(1), withOptions(Map.of("tombstone-retention", "PT1H")).tombstoneRetention());
    }

    @Test
    void unknownOption_failsNamingItAndTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                                  () -> withOptions(Map.of("fsync", "true")));

        assertEquals("Embedded engine option fsync='true' is invalid: unknown option; known are [block-cache, "
                     + "document-cache, max-pending, min-free-disk, sync, threads, tombstone-retention, write-buffers]",
                     e.getMessage());
    }

    @Test
    void badSize_failsNamingOptionAndValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                                  () -> withOptions(Map.of("block-cache", "lots")));

        assertEquals("Embedded engine option block-cache='lots' is invalid: expected a byte count like 64m, 512k or "
                     + "1073741824", e.getMessage());
    }

    @Test
    void sizeBelowMinimum_failsNamingOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                                                  () -> withOptions(Map.of("write-buffers", "1k")));

        assertEquals("Embedded engine option write-buffers='1k' is invalid: writeBufferBytes must be at least "
                     + "1048576, but was 1024", e.getMessage());
    }

    @Test
    void badBoolean_failsNamingOption() {
        assertThrows(IllegalArgumentException.class, () -> withOptions(Map.of("sync", "yes")));
    }

}
