package io.sluice.feed.cli;

import io.sluice.feed.FeedReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FeedCheckpointTest {

    @TempDir Path directory;

    private static FeedReader.Position at(long offset) { return new FeedReader.Position(offset, (int) offset / 10 + 1, 1); }

    private Path input() throws IOException {
        Path input = directory.resolve("feed.jsonl");
        Files.writeString(input, "x".repeat(10_000));
        return input;
    }

    @Test
    void position_advancesOverTheLongestDonePrefix() throws IOException {
        FeedCheckpoint checkpoint = FeedCheckpoint.load(directory.resolve("cp"), input());
        long a = checkpoint.track(at(10)), b = checkpoint.track(at(20)), c = checkpoint.track(at(30));
        checkpoint.done(b);
        assertEquals(FeedReader.Position.START, checkpoint.position());
        checkpoint.done(a);
        assertEquals(at(20), checkpoint.position());
        checkpoint.done(c);
        assertEquals(at(30), checkpoint.position());
    }

    @Test
    void track_beyondTheInitialCapacity_keepsOrder() throws IOException {
        FeedCheckpoint checkpoint = FeedCheckpoint.load(directory.resolve("cp"), input());
        long first = checkpoint.track(at(1));
        long[] rest = new long[5000];
        for (int i = 0; i < rest.length; i++) rest[i] = checkpoint.track(at(i + 2));
        for (long sequence : rest) checkpoint.done(sequence);
        assertEquals(FeedReader.Position.START, checkpoint.position());
        checkpoint.done(first);
        assertEquals(at(5001), checkpoint.position());
    }

    @Test
    void save_thenLoad_resumesThere() throws IOException {
        Path file = directory.resolve("cp");
        FeedCheckpoint checkpoint = FeedCheckpoint.load(file, input());
        assertFalse(checkpoint.resumed());
        checkpoint.done(checkpoint.track(new FeedReader.Position(123, 4, 5)));
        checkpoint.save();
        assertFalse(Files.exists(directory.resolve("cp.tmp")));
        FeedCheckpoint loaded = FeedCheckpoint.load(file, input());
        assertTrue(loaded.resumed());
        assertEquals(new FeedReader.Position(123, 4, 5), loaded.start());
    }

    @Test
    void load_ofAnotherInput_isRefused() throws IOException {
        Path file = directory.resolve("cp");
        FeedCheckpoint checkpoint = FeedCheckpoint.load(file, input());
        checkpoint.done(checkpoint.track(at(10)));
        checkpoint.save();
        Path other = Files.writeString(directory.resolve("other.jsonl"), "{}");
        UsageException e = assertThrows(UsageException.class, () -> FeedCheckpoint.load(file, other));
        assertTrue(e.getMessage().contains("belongs to the feed of '" + input().toAbsolutePath() + "'"), e.getMessage());
    }

    @Test
    void load_beyondTheEndOfTheInput_isRefused() throws IOException {
        Path file = directory.resolve("cp");
        FeedCheckpoint checkpoint = FeedCheckpoint.load(file, input());
        checkpoint.done(checkpoint.track(at(9_000)));
        checkpoint.save();
        Files.writeString(input(), "short");
        UsageException e = assertThrows(UsageException.class, () -> FeedCheckpoint.load(file, directory.resolve("feed.jsonl")));
        assertTrue(e.getMessage().contains("beyond the end"), e.getMessage());
    }

}
