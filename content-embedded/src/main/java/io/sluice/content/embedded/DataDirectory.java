package io.sluice.content.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Creates the store's data directory so that it survives a power cut. A new directory's name lives in its parent, and
 * reaches the disk only when the parent is fsynced: without that, a power cut soon after the first start can lose
 * the whole store even though every write in it was fsynced (shown by {@code faultfs/powerloss.sh}). RocksDB fsyncs
 * the data directory itself as it adds files; the directories above it are this class's job.
 */
final class DataDirectory {

    /** Forces a directory's entries to disk. */
    @FunctionalInterface
    interface DirectorySync {
        void sync(Path directory) throws IOException;
    }

    /** Opens the directory and fsyncs it, as RocksDB does (Linux allows fsync of a directory opened read-only). */
    static final DirectorySync FSYNC = directory -> {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    };

    private DataDirectory() {
    }

    /**
     * Creates {@code directory} and any missing parents, then fsyncs, deepest first, the parent of each directory it
     * created and the data directory's own parent (which an earlier start may have created and lost power before it
     * was synced). Returns the directories it synced, in order.
     *
     * @throws UncheckedIOException naming the directory that could not be created or synced
     */
    static List<Path> create(Path directory, DirectorySync sync) {
        Path absolute = directory.toAbsolutePath().normalize();
        Set<Path> parents = new LinkedHashSet<>();
        for (Path missing = absolute; missing.getParent() != null && !Files.isDirectory(missing);
             missing = missing.getParent())
            parents.add(missing.getParent());
        if (absolute.getParent() != null)
            parents.add(absolute.getParent());
        try {
            Files.createDirectories(absolute);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create data directory " + directory, e);
        }
        List<Path> synced = new ArrayList<>();
        for (Path parent : parents) {
            try {
                sync.sync(parent);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot fsync " + parent + ", which holds the data directory "
                                               + directory + ": " + e.getMessage(), e);
            }
            synced.add(parent);
        }
        return synced;
    }

}
