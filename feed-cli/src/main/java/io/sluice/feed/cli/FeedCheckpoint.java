package io.sluice.feed.cli;

import io.sluice.feed.FeedReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * {@code --checkpoint}: the input position below which every operation has its final outcome (acknowledged, or failed
 * for good and so reported), kept in a small text file so that rerunning the same command after a kill continues from
 * there:
 * <pre>
 * sluice-feed-checkpoint 1
 * input &lt;absolute path of the feed file&gt;
 * position &lt;byte offset&gt; &lt;line&gt; &lt;column&gt;
 * </pre>
 * Operations after the position may have been acknowledged too, and are sent again by the rerun: at most the
 * operations that were in flight, plus those that completed since the last save. The file is written to a temporary
 * name and renamed over the old one, so a kill leaves either the old or the new version.
 * <p>
 * Operations complete out of order: each one sent is {@link #track tracked} in sequence, and the position advances
 * over the longest prefix of them that is {@link #done}.
 */
final class FeedCheckpoint {

    private static final String HEADER = "sluice-feed-checkpoint 1";

    private final Path file;
    private final Path input;
    private final FeedReader.Position start;
    private final Object saving = new Object();
    private FeedReader.Position saved;
    private FeedReader.Position position;
    private FeedReader.Position[] ends = new FeedReader.Position[1024];
    private boolean[] done = new boolean[1024];
    private long head = 0; // the oldest tracked operation not yet done
    private long tail = 0; // the next sequence number

    private FeedCheckpoint(Path file, Path input, FeedReader.Position position) {
        this.file = file;
        this.input = input;
        this.start = position;
        this.position = position;
        this.saved = position;
    }

    /** Loads the checkpoint for feed file {@code input}, or starts at its beginning if {@code file} does not exist. */
    static FeedCheckpoint load(Path file, Path input) {
        Path absolute = input.toAbsolutePath().normalize();
        if ( ! Files.exists(file)) return new FeedCheckpoint(file, absolute, FeedReader.Position.START);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UsageException("Option '--checkpoint': cannot read '" + file + "': " + e.getMessage());
        }
        if (lines.size() != 3 || ! lines.get(0).equals(HEADER) || ! lines.get(1).startsWith("input ") || ! lines.get(2).startsWith("position "))
            throw new UsageException("Checkpoint '" + file + "' is not a sluice feed checkpoint");
        String recorded = lines.get(1).substring("input ".length());
        if ( ! recorded.equals(absolute.toString()))
            throw new UsageException("Checkpoint '" + file + "' belongs to the feed of '" + recorded + "', not of '" + absolute + "'");
        String[] parts = lines.get(2).split(" ");
        FeedReader.Position position;
        try {
            position = new FeedReader.Position(Long.parseLong(parts[1]), Integer.parseInt(parts[2]), Integer.parseInt(parts[3]));
        }
        catch (RuntimeException e) {
            throw new UsageException("Checkpoint '" + file + "' has a malformed position: '" + lines.get(2) + "'");
        }
        try {
            if (position.offset() > Files.size(absolute))
                throw new UsageException("Checkpoint '" + file + "' is at offset " + position.offset() + ", beyond the end of '" +
                                         absolute + "' (" + Files.size(absolute) + " bytes): the file was changed");
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new FeedCheckpoint(file, absolute, position);
    }

    /** Where this run starts: the beginning, or where the last run got to. */
    FeedReader.Position start() { return start; }

    /** Where the operations with their final outcome end now. */
    synchronized FeedReader.Position position() { return position; }

    /** Whether this run continues an earlier one. */
    boolean resumed() { return start.offset() > 0; }

    /** Tracks a sent operation ending at {@code end}; returns its sequence number for {@link #done}. */
    synchronized long track(FeedReader.Position end) {
        if (tail - head == ends.length) grow();
        int slot = slot(tail);
        ends[slot] = end;
        done[slot] = false;
        return tail++;
    }

    /** The operation has its final outcome. */
    synchronized void done(long sequence) {
        done[slot(sequence)] = true;
        while (head < tail && done[slot(head)]) {
            int slot = slot(head++);
            position = ends[slot];
            ends[slot] = null;
        }
    }

    private int slot(long sequence) { return (int) (sequence % ends.length); }

    private void grow() {
        FeedReader.Position[] biggerEnds = new FeedReader.Position[ends.length * 2];
        boolean[] biggerDone = new boolean[done.length * 2];
        for (long sequence = head; sequence < tail; sequence++) {
            biggerEnds[(int) (sequence % biggerEnds.length)] = ends[slot(sequence)];
            biggerDone[(int) (sequence % biggerDone.length)] = done[slot(sequence)];
        }
        ends = biggerEnds;
        done = biggerDone;
    }

    /** Writes the file if the position moved since the last save. */
    void save() {
        synchronized (saving) {
            write();
        }
    }

    private void write() {
        FeedReader.Position current;
        synchronized (this) {
            current = position;
            if (current.equals(saved) && Files.exists(file)) return;
        }
        String text = HEADER + "\ninput " + input + "\nposition " + current.offset() + " " + current.line() + " " + current.column() + "\n";
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.writeString(temporary, text, StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Failed writing checkpoint '" + file + "'", e);
        }
        synchronized (this) { saved = current; }
    }

}
