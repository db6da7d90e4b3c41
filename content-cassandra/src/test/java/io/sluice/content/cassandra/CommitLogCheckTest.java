package io.sluice.content.cassandra;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommitLogCheckTest {

    private static Optional<CommitLogCheck.Mode> read(Map<String, String> settings) {
        return CommitLogCheck.read(name -> Optional.ofNullable(settings.get(name)));
    }

    @Test
    void periodic_acknowledgesBeforeFsync_andSaysForHowLong() {
        CommitLogCheck.Mode mode = read(Map.of("commitlog_sync", "periodic", "commitlog_sync_period", "10000ms"))
                .orElseThrow();

        assertFalse(mode.syncsBeforeAcknowledging());
        assertTrue(mode.promise().contains("before its commit log is fsynced"), mode.promise());
        assertTrue(mode.promise().contains("10000ms"), mode.promise());
    }

    @Test
    void batch_andGroup_fsyncBeforeAcknowledging() {
        CommitLogCheck.Mode batch = read(Map.of("commitlog_sync", "batch")).orElseThrow();
        CommitLogCheck.Mode group = read(Map.of("commitlog_sync", "GROUP", "commitlog_sync_group_window", "15ms"))
                .orElseThrow();

        assertTrue(batch.syncsBeforeAcknowledging());
        assertTrue(group.syncsBeforeAcknowledging());
        assertEquals("group", group.sync());
        assertTrue(group.promise().contains("window 15ms"), group.promise());
    }

    @Test
    void unknownMode_isNotTakenForSynced() {
        CommitLogCheck.Mode mode = read(Map.of("commitlog_sync", "someday")).orElseThrow();

        assertFalse(mode.syncsBeforeAcknowledging());
        assertTrue(mode.promise().contains("not known"), mode.promise());
    }

    @Test
    void noSetting_isEmpty() {
        assertEquals(Optional.empty(), read(Map.of()));
    }

}
