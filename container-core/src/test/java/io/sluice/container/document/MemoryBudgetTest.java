package io.sluice.container.document;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MemoryBudgetTest {

    private final MemoryBudget budget = MemoryBudget.of(100);
    private final AtomicInteger wakeUps = new AtomicInteger();

    @Test
    void tryReserve_grantsOnlyWhatFits() {
        assertTrue(budget.tryReserve(60));
        assertFalse(budget.tryReserve(41));
        assertTrue(budget.tryReserve(40));
        assertEquals(100, budget.reserved());
        assertFalse(MemoryBudget.of(100).tryReserve(101), "never more than the capacity, even alone");
    }

    @Test
    void reserveOrWait_grantsMoreThanTheCapacityOnlyToTheOnlyHolder() {
        assertTrue(budget.reserveOrWait(10, 0, wakeUps::incrementAndGet));
        assertTrue(budget.reserveOrWait(500, 10, wakeUps::incrementAndGet), "the caller holds all 10 reserved");
        assertEquals(510, budget.reserved());
        assertFalse(budget.reserveOrWait(1, 0, wakeUps::incrementAndGet), "another caller waits");
        budget.release(510);
        assertEquals(1, wakeUps.get());
        assertFalse(budget.reserveOrWait(500, 0, wakeUps::incrementAndGet) && budget.reserved() != 500);
    }

    @Test
    void waiters_runOnceOnTheNextRelease() {
        budget.force(100);
        assertFalse(budget.reserveOrWait(10, 0, wakeUps::incrementAndGet));
        assertFalse(budget.reserveOrWait(20, 0, wakeUps::incrementAndGet));
        budget.release(5);
        assertEquals(2, wakeUps.get());
        budget.release(5);
        assertEquals(2, wakeUps.get(), "a waiter runs once; it asks again if it still needs room");
    }

    @Test
    void force_countsBeyondTheCapacity_andReleaseChecksItsArgument() {
        budget.force(150);
        assertEquals(150, budget.reserved());
        assertThrows(IllegalArgumentException.class, () -> budget.release(151));
        assertThrows(IllegalArgumentException.class, () -> budget.force(-1));
        budget.release(150);
        assertEquals(0, budget.reserved());
    }

}
