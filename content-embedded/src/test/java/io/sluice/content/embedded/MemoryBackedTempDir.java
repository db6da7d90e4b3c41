package io.sluice.content.embedded;

import org.junit.jupiter.api.extension.AnnotatedElementContext;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.io.TempDirFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Temporary directories on {@code /dev/shm} where there is one: each store a test opens costs a handful of fsyncs
 * (creating column families, flushing on close), which take long on a busy disk and nothing on tmpfs. Tests of
 * behaviour use it; the crash test keeps the real disk.
 */
final class MemoryBackedTempDir implements TempDirFactory {

    private static final Path SHARED_MEMORY = Path.of("/dev/shm");

    @Override
    public Path createTempDirectory(AnnotatedElementContext element, ExtensionContext extension) throws IOException {
        if (Files.isDirectory(SHARED_MEMORY) && Files.isWritable(SHARED_MEMORY)) {
            return Files.createTempDirectory(SHARED_MEMORY, "sluice-embedded-test");
        }
        return Files.createTempDirectory("sluice-embedded-test");
    }

}
