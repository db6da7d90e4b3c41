package io.sluice.content.embedded;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataDirectoryTest {

    @TempDir
    Path root;

    @Test
    void create_newNestedDirectories_syncsEachCreatedOnesParentDeepestFirst() {
        Path directory = root.resolve("data").resolve("music");
        List<Path> calls = new ArrayList<>();

        List<Path> synced = DataDirectory.create(directory, calls::add);

        assertTrue(Files.isDirectory(directory));
        Path real = root.toAbsolutePath();
        assertEquals(List.of(real.resolve("data"), real), calls);
        assertEquals(calls, synced);
    }

    @Test
    void create_existingDirectory_syncsItsParentOnly() throws IOException {
        Path directory = Files.createDirectories(root.resolve("data"));
        List<Path> calls = new ArrayList<>();

        DataDirectory.create(directory, calls::add);

        assertEquals(List.of(root.toAbsolutePath()), calls);
    }

    @Test
    void create_withTheRealFsync_succeedsOnALocalFileSystem() {
        Path directory = root.resolve("a").resolve("b");

        assertEquals(List.of(root.toAbsolutePath().resolve("a"), root.toAbsolutePath()),
                     DataDirectory.create(directory, DataDirectory.FSYNC));
    }

    @Test
    void create_whenSyncFails_namesTheDirectory() {
        Path directory = root.resolve("data");

        UncheckedIOException failure = assertThrows(UncheckedIOException.class, () -> DataDirectory.create(
                directory, parent -> { throw new IOException("Input/output error"); }));

        assertTrue(failure.getMessage().contains(root.toAbsolutePath().toString()), failure.getMessage());
        assertTrue(failure.getMessage().contains("Input/output error"), failure.getMessage());
    }

}
