package io.sluice.content.cassandra;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyedChainsTest {

    private final KeyedChains<String> chains = new KeyedChains<>();

    @Test
    void taskOfSameKey_waitsForPrevious() {
        CompletableFuture<String> first = new CompletableFuture<>();
        List<String> started = new ArrayList<>();
        chains.add("a", () -> { started.add("first"); return first; });
        CompletableFuture<String> second = chains.add("a", () -> {
            started.add("second");
            return CompletableFuture.completedFuture("done");
        });
        assertEquals(List.of("first"), started);
        first.complete("x");
        assertEquals(List.of("first", "second"), started);
        assertEquals("done", second.join());
    }

    @Test
    void taskOfOtherKey_startsAtOnce() {
        chains.add("a", CompletableFuture::new);
        CompletableFuture<String> other = chains.add("b", () -> CompletableFuture.completedFuture("b"));
        assertEquals("b", other.join());
    }

    @Test
    void failedTask_stillReleasesNext() {
        CompletableFuture<String> first = new CompletableFuture<>();
        CompletableFuture<String> failed = chains.add("a", () -> first);
        CompletableFuture<String> second = chains.add("a", () -> CompletableFuture.completedFuture("ok"));
        first.completeExceptionally(new IllegalStateException("boom"));
        assertTrue(failed.isCompletedExceptionally());
        assertEquals("ok", second.join());
    }

    @Test
    void completedChain_leavesNoEntry() {
        CompletableFuture<String> first = new CompletableFuture<>();
        chains.add("a", () -> first);
        assertEquals(1, chains.size());
        first.complete("x");
        assertEquals(0, chains.size());
        assertFalse(first.isCompletedExceptionally());
    }

}
