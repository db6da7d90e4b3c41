package io.sluice.feed.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Per-slice progress of a visit, kept in a text file so a rerun continues where the last run stopped:
 * <pre>
 * sluice-visit-checkpoint 1
 * key &lt;what is visited, to refuse a checkpoint of another visit&gt;
 * slices N
 * slice &lt;id&gt; done|token|start &lt;output bytes&gt; [&lt;token&gt;]
 * file &lt;id&gt; &lt;index&gt;
 * </pre>
 * The output byte count is the length of the slice's output file when the token was recorded, so a rerun truncates
 * what was written after it, and writes each document once. A {@code file} line, written only for a slice past its
 * first file, says which of the slice's files that is (files before it are complete). Saved by writing a temporary
 * file and renaming it.
 */
final class Checkpoint {

    enum State { START, TOKEN, DONE }

    record Slice(State state, long outputBytes, Optional<String> token, int file) {
        static final Slice START = new Slice(State.START, 0, Optional.empty(), 0);
    }

    private final Path file;
    private final String key;
    private final Slice[] slices;
    private boolean dirty = false;

    private Checkpoint(Path file, String key, Slice[] slices) {
        this.file = file;
        this.key = key;
        this.slices = slices;
    }

    /** Loads the checkpoint, or starts a new one if the file does not exist. */
    static Checkpoint load(Path file, String key, int sliceCount) {
        Slice[] slices = new Slice[sliceCount];
        java.util.Arrays.fill(slices, Slice.START);
        if ( ! Files.exists(file)) return new Checkpoint(file, key, slices);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Failed reading checkpoint '" + file + "'", e);
        }
        if (lines.isEmpty() || ! lines.get(0).equals("sluice-visit-checkpoint 1"))
            throw new UsageException("Checkpoint '" + file + "' is not a sluice visit checkpoint");
        for (String line : lines.subList(1, lines.size())) {
            String[] parts = line.split(" ", 5);
            switch (parts[0]) {
                case "key":
                    if ( ! line.substring(4).equals(key))
                        throw new UsageException("Checkpoint '" + file + "' belongs to another visit: " + line.substring(4));
                    break;
                case "slices":
                    if (Integer.parseInt(parts[1]) != sliceCount)
                        throw new UsageException("Checkpoint '" + file + "' has " + parts[1] + " slices, but --slices is " + sliceCount);
                    break;
                case "slice":
                    int id = Integer.parseInt(parts[1]);
                    State state = State.valueOf(parts[2].toUpperCase(java.util.Locale.ROOT));
                    slices[id] = new Slice(state, Long.parseLong(parts[3]), parts.length > 4 ? Optional.of(parts[4]) : Optional.empty(),
                                           slices[id].file());
                    break;
                case "file":
                    int slice = Integer.parseInt(parts[1]);
                    Slice old = slices[slice];
                    slices[slice] = new Slice(old.state(), old.outputBytes(), old.token(), Integer.parseInt(parts[2]));
                    break;
                default:
                    throw new UsageException("Checkpoint '" + file + "' has an unknown line: " + line);
            }
        }
        return new Checkpoint(file, key, slices);
    }

    synchronized Slice slice(int id) { return slices[id]; }

    synchronized void update(int id, Optional<String> token, long outputBytes) {
        update(id, token, outputBytes, slices[id].file());
    }

    /** Records where slice {@code id} is: its token (empty when done), and the length and index of its current file. */
    synchronized void update(int id, Optional<String> token, long outputBytes, int file) {
        slices[id] = token.isPresent() ? new Slice(State.TOKEN, outputBytes, token, file)
                                       : new Slice(State.DONE, outputBytes, Optional.empty(), file);
        dirty = true;
    }

    /** Writes the file if anything changed since the last save. */
    synchronized void save() {
        if ( ! dirty) return;
        List<String> lines = new ArrayList<>();
        lines.add("sluice-visit-checkpoint 1");
        lines.add("key " + key);
        lines.add("slices " + slices.length);
        for (int i = 0; i < slices.length; i++) {
            Slice slice = slices[i];
            lines.add("slice " + i + " " + slice.state().name().toLowerCase(java.util.Locale.ROOT) + " " + slice.outputBytes() +
                      slice.token().map(t -> " " + t).orElse(""));
            if (slice.file() > 0) lines.add("file " + i + " " + slice.file());
        }
        Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.write(temporary, lines, StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (IOException e) {
            throw new UncheckedIOException("Failed writing checkpoint '" + file + "'", e);
        }
        dirty = false;
    }

}
