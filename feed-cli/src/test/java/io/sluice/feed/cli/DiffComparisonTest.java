package io.sluice.feed.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DiffComparisonTest {

    @TempDir Path tmp;

    private static void write(DiffSpill spill, String line) throws IOException, InterruptedException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        spill.write(new ContentDigest().digest(bytes, 0, bytes.length), bytes, 0, bytes.length);
    }

    private static String doc(String id, int value) {
        return "{\"id\":\"id:ns:t::" + id + "\",\"fields\":{\"f\":" + value + "}}";
    }

    /** Collects the differences as lines. */
    private static final class Collected implements DiffComparison.Differences {
        final List<String> lines = new ArrayList<>();
        @Override public void onlyInA(String id, byte[] document) { lines.add("a " + id + " " + (document == null ? "" : new String(document, StandardCharsets.UTF_8))); }
        @Override public void differing(String id, byte[] document) { lines.add("d " + id + " " + (document == null ? "" : new String(document, StandardCharsets.UTF_8))); }
        @Override public void onlyInB(String id) { lines.add("b " + id); }
    }

    @Test
    void compare_sortsEachDocumentIntoOneKind_withAsDocumentsAsTheyWereVisited() throws IOException, InterruptedException {
        Collected collected = new Collected();
        DiffComparison.Counts counts;
        try (DiffSpill a = new DiffSpill(tmp, "a", 1, true); DiffSpill b = new DiffSpill(tmp, "b", 1, false)) {
            write(a, doc("same", 1));
            write(b, doc("same", 1));
            write(a, doc("changed", 1));
            write(b, doc("changed", 2));
            write(a, doc("gone", 1));
            write(b, doc("new", 1));
            a.finishWriting();
            b.finishWriting();
            counts = DiffComparison.compare(a, b, collected, p -> { }, 2);
        }
        assertEquals(new DiffComparison.Counts(1, 1, 1, 1), counts);
        assertEquals(List.of("a id:ns:t::gone " + doc("gone", 1), "d id:ns:t::changed " + doc("changed", 1), "b id:ns:t::new"),
                     collected.lines);
    }

    @Test
    void aDocumentVisitedAgainAfterARewind_countsOnce_asItsLastVisit() throws IOException, InterruptedException {
        Collected collected = new Collected();
        DiffComparison.Counts counts;
        try (DiffSpill a = new DiffSpill(tmp, "a", 4, true); DiffSpill b = new DiffSpill(tmp, "b", 4, false)) {
            write(a, doc("x", 1));
            write(a, doc("x", 2));
            write(b, doc("x", 2));
            write(b, doc("y", 1));
            write(b, doc("y", 1));
            write(a, doc("y", 1));
            a.finishWriting();
            b.finishWriting();
            counts = DiffComparison.compare(a, b, collected, p -> { }, 2);
        }
        assertEquals(new DiffComparison.Counts(0, 0, 0, 2), counts);
        assertEquals(List.of(), collected.lines);
    }

    @Test
    void manyPartitions_findEveryDifference_andDeleteTheirFiles() throws IOException, InterruptedException {
        Collected collected = new Collected();
        DiffComparison.Counts counts;
        try (DiffSpill a = new DiffSpill(tmp, "a", 16, false); DiffSpill b = new DiffSpill(tmp, "b", 16, false)) {
            for (int i = 0; i < 1000; i++) {
                write(a, doc("d" + i, i));
                if (i % 100 != 0) write(b, doc("d" + i, i % 250 == 1 ? -1 : i));
            }
            a.finishWriting();
            b.finishWriting();
            counts = DiffComparison.compare(a, b, collected, p -> { }, 2);
        }
        assertEquals(new DiffComparison.Counts(10, 0, 4, 986), counts);
        assertEquals(14, collected.lines.size());
        assertTrue(collected.lines.stream().allMatch(line -> line.endsWith(" ")), "no documents kept: " + collected.lines);
        try (var files = Files.list(tmp)) {
            assertEquals(0, files.count());
        }
    }

}
