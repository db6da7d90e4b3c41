package io.sluice.content;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CoalescedWritesTest {

    @Test
    void defer_outsideATask_isRefused_soTheCallerWritesAtOnce() {
        assertFalse(CoalescedWrites.active());
        assertFalse(CoalescedWrites.defer(() -> { throw new AssertionError("never run"); }));
    }

    @Test
    void deferredWrites_runWhenTheOutermostTaskEnds_inTheOrderDeferred() {
        List<String> events = new ArrayList<>();

        CoalescedWrites.run(() -> {
            assertTrue(CoalescedWrites.defer(() -> events.add("write 1")));
            CoalescedWrites.run(() -> assertTrue(CoalescedWrites.defer(() -> events.add("write 2"))));
            events.add("inner task done");
        });

        assertEquals(List.of("inner task done", "write 1", "write 2"), events);
        assertFalse(CoalescedWrites.active());
    }

    @Test
    void aTaskThatThrows_stillStartsItsWrites_andKeepsItsOwnFailure() {
        List<String> events = new ArrayList<>();

        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> CoalescedWrites.run(() -> {
            CoalescedWrites.defer(() -> events.add("written"));
            CoalescedWrites.defer(() -> { throw new IllegalArgumentException("write failed"); });
            throw new IllegalStateException("task failed");
        }));

        assertEquals(List.of("written"), events);
        assertEquals("task failed", thrown.getMessage());
        assertEquals("write failed", thrown.getSuppressed()[0].getMessage());
        assertFalse(CoalescedWrites.active());
    }

    @Test
    void aWriteThatThrows_doesNotKeepTheOthersFromStarting() {
        List<String> events = new ArrayList<>();

        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> CoalescedWrites.run(() -> {
            CoalescedWrites.defer(() -> { throw new IllegalStateException("first"); });
            CoalescedWrites.defer(() -> events.add("second"));
            CoalescedWrites.defer(() -> { throw new IllegalStateException("third"); });
        }));

        assertEquals(List.of("second"), events);
        assertEquals("first", thrown.getMessage());
        assertEquals("third", thrown.getSuppressed()[0].getMessage());
        assertFalse(CoalescedWrites.active());
    }

}
