package io.sluice.feed.cli;

import org.junit.jupiter.api.Test;

import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ProgressTest {

    @Test
    void line_withKnownInputSize_showsPercentAndEta() {
        assertEquals("12,345 ok  2 errors  4,321 ops/s  256 in flight  25.0%  ETA 0:01:30",
                     Progress.line(12_345, 2, 4321.4, 256, 250, OptionalLong.of(1000), 30));
    }

    @Test
    void line_fromStdin_hasNoPercent() {
        assertEquals("0 ok  0 errors  0 ops/s  0 in flight", Progress.line(0, 0, 0, 0, 100, OptionalLong.empty(), 1));
    }

    @Test
    void statuses_inStatusOrder_withAttemptsWithoutResponse() {
        assertEquals("  (200: 12,000  429: 3  503: 1  no response: 2)", Progress.statuses(java.util.Map.of(503, 1L, 200, 12_000L, 429, 3L), 2));
        assertEquals("", Progress.statuses(java.util.Map.of(), 0));
    }

}
