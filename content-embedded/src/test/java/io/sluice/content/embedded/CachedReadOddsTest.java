package io.sluice.content.embedded;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CachedReadOddsTest {

    @Test
    void aNewStore_tries_andKeepsTryingThroughFewerMissesThanItsLimit() {
        CachedReadOdds odds = new CachedReadOdds();
        for (int i = 0; i < CachedReadOdds.LIMIT; i++) {
            assertTrue(odds.worthTrying(), "try " + i);
            odds.tried(false);
        }
        assertEquals(0, odds.score());
        assertTrue(odds.worthTrying());
    }

    @Test
    void mostlyMisses_skipTheTry_butProbeOnceInEvery() {
        CachedReadOdds odds = missedAll();
        int tries = 0;
        for (int i = 0; i < 10 * CachedReadOdds.PROBE_EVERY; i++) {
            if (odds.worthTrying()) {
                tries++;
                odds.tried(false);
            }
        }
        assertEquals(10, tries);
        assertEquals(-CachedReadOdds.LIMIT, odds.score(), "the score stays within its limit");
    }

    @Test
    void probesThatHit_bringTheTriesBack() {
        CachedReadOdds odds = missedAll();
        int operations = 0;
        while (odds.score() < 0) {
            operations++;
            if (odds.worthTrying()) {
                odds.tried(true);
            }
        }
        assertEquals(CachedReadOdds.LIMIT * CachedReadOdds.PROBE_EVERY, operations,
                     "each probe that hits raises the score by one");
        assertTrue(odds.worthTrying());
    }

    @Test
    void halfTheTriesHitting_keepsThemWorthIt_aThird_doesNot() {
        CachedReadOdds odds = new CachedReadOdds();
        for (int i = 0; i < 1000; i++) {
            odds.tried(i % 2 == 0);
            assertTrue(odds.worthTrying());
        }
        for (int i = 0; i < 6 * CachedReadOdds.LIMIT; i++) {
            odds.tried(i % 3 == 0);
        }
        assertEquals(-CachedReadOdds.LIMIT, odds.score());
        assertFalse(odds.worthTrying());
    }

    private static CachedReadOdds missedAll() {
        CachedReadOdds odds = new CachedReadOdds();
        for (int i = 0; i < 3 * CachedReadOdds.LIMIT; i++) {
            odds.tried(false);
        }
        assertEquals(-CachedReadOdds.LIMIT, odds.score());
        return odds;
    }
}
