package io.sluice.content.embedded;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.FieldSet;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Outcome.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fills a really small file system until RocksDB itself runs out of space (the free-space threshold off), which
 * needs such a file system: run with {@code -Dsluice.smallfs=/mnt/small} on e.g. a 24 MiB tmpfs
 * ({@code mount -t tmpfs -o size=24m tmpfs /mnt/small}), as {@code .ci/run} does. The threshold path is tested
 * always, in {@link EmbeddedStoreTest}.
 */
@EnabledIfSystemProperty(named = "sluice.smallfs", matches = ".+")
class EmbeddedDiskFullTest {

    private static final DocumentType MUSIC = DocumentType.builder("music").field("body", PrimitiveType.STRING).build();
    /** Enough 1 KiB documents to fill 64 MiB even compressed; a bigger file system does not fill. */
    private static final int MAX_DOCUMENTS = 200_000;

    private static Document document(int n, Random random) {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            body.append((char) ('a' + random.nextInt(26)));
        }
        return Document.builder(MUSIC, DocumentId.of("id:ns:music::" + n)).set("body", new StringValue(body.toString()))
                       .build();
    }

    @Test
    void put_onFullFileSystem_returnsInsufficientStorageWhileGetsWork() throws Exception {
        Path directory = Files.createTempDirectory(Path.of(System.getProperty("sluice.smallfs")), "store");
        try {
            fillUntilRefused(directory);
        }
        finally {
            deleteRecursively(directory); // the file system is the next test's too
        }
    }

    private static void fillUntilRefused(Path directory) throws Exception {
        try (EmbeddedContentBackend backend = EmbeddedContentBackend.open(
                EmbeddedOptions.builder(directory, DocumentTypes.of(List.of(MUSIC)))
                               .minFreeDiskBytes(0).blockCacheBytes(1 << 20).writeBufferBytes(1 << 20).build())) {
            Random random = new Random(1);
            Outcome last = null;
            int n = 0;
            while (n < MAX_DOCUMENTS) {
                last = backend.put(document(n, random), options()).get(30, TimeUnit.SECONDS);
                if (!last.isSuccess()) {
                    break;
                }
                n++;
            }

            assertEquals(Status.INSUFFICIENT_STORAGE, last.status(), last.toString());
            assertTrue(n > 0, "some documents fit");
            assertEquals(Status.SUCCESS, backend.get(DocumentId.of("id:ns:music::0"), FieldSet.all(), options())
                                                .get(30, TimeUnit.SECONDS).status());
        }
    }

    /**
     * Fills the file system until RocksDB finds it full, then fills its last bytes, closes, and opens again on the
     * still-full disk: the open succeeds, every acknowledged document reads back, writes are refused as
     * INSUFFICIENT_STORAGE, and once space is freed the same open store takes writes again, with nothing lost.
     */
    @Test
    void restart_onFullFileSystem_servesReads_refusesWrites_andTakesThemOnceSpaceIsFreed() throws Exception {
        Path directory = Files.createTempDirectory(Path.of(System.getProperty("sluice.smallfs")), "restart");
        Path filler = directory.resolveSibling(directory.getFileName() + ".filler");
        EmbeddedOptions options = EmbeddedOptions.builder(directory, DocumentTypes.of(List.of(MUSIC)))
                                                 .minFreeDiskBytes(0).blockCacheBytes(1 << 20)
                                                 .writeBufferBytes(1 << 20).build();
        Random random = new Random(2);
        int acknowledged = 0;
        try {
            try (EmbeddedContentBackend backend = EmbeddedContentBackend.open(options)) {
                DiskReserve reserve = DiskReserve.in(directory, options.writeBufferBytes());
                for (int attempt = 0; attempt < 600 && ! reserve.isHeld(); attempt++)
                    Thread.sleep(100); // the store writes its reserve in the background within seconds
                assertTrue(reserve.isHeld(), "the disk reserve is written");
                while (acknowledged < MAX_DOCUMENTS
                       && backend.put(document(acknowledged, random), options()).get(30, TimeUnit.SECONDS).isSuccess())
                    acknowledged++;
                fill(filler);
            }
            fill(filler); // what closing left free, too
            assertTrue(acknowledged > 0 && acknowledged < MAX_DOCUMENTS, "filled after " + acknowledged);

            try (EmbeddedContentBackend backend = EmbeddedContentBackend.open(options)) {
                for (int n = 0; n < acknowledged; n++)
                    assertEquals(Status.SUCCESS, backend.get(DocumentId.of("id:ns:music::" + n), FieldSet.all(), options())
                                                        .get(30, TimeUnit.SECONDS).status(), "document " + n);
                // A write may still fit in the log's preallocated last page: then it is acknowledged, and kept.
                Outcome refused;
                while ((refused = backend.put(document(acknowledged, random), options()).get(30, TimeUnit.SECONDS)).isSuccess())
                    acknowledged++;
                assertEquals(Status.INSUFFICIENT_STORAGE, refused.status(), refused.toString());
                assertEquals(Optional.of("writes are refused (507): the disk under " + directory + " is full; they are "
                                         + "taken again once space is freed"), backend.condition());

                Files.delete(filler);
                Outcome taken = null;
                for (int attempt = 0; attempt < 600; attempt++) { // polls RocksDB's own recovery; no timing asserted
                    taken = backend.put(document(acknowledged, random), options()).get(30, TimeUnit.SECONDS);
                    if (taken.isSuccess())
                        break;
                    Thread.sleep(100);
                }
                assertEquals(Status.SUCCESS, taken.status(), taken.toString());
                acknowledged++;
                for (int attempt = 0; attempt < 600 && backend.condition().isPresent(); attempt++)
                    Thread.sleep(100); // the reserve is written again within seconds
                assertEquals(Optional.empty(), backend.condition());
                assertTrue(DiskReserve.in(directory, options.writeBufferBytes()).isHeld(), "the disk reserve is back");
            }
            try (EmbeddedContentBackend backend = EmbeddedContentBackend.open(options)) {
                for (int n = 0; n < acknowledged; n++)
                    assertEquals(Status.SUCCESS, backend.get(DocumentId.of("id:ns:music::" + n), FieldSet.all(), options())
                                                        .get(30, TimeUnit.SECONDS).status(), "document " + n);
            }
        }
        finally {
            Files.deleteIfExists(filler);
            deleteRecursively(directory);
        }
    }

    private static void deleteRecursively(Path directory) throws java.io.IOException {
        try (var files = Files.walk(directory)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList())
                Files.delete(file);
        }
    }

    /** Appends zeros to {@code file} until the file system has no byte left. */
    private static void fill(Path file) {
        byte[] block = new byte[64 << 10];
        try (var out = Files.newOutputStream(file, java.nio.file.StandardOpenOption.CREATE,
                                             java.nio.file.StandardOpenOption.APPEND)) {
            while (true) {
                out.write(block);
                out.flush();
            }
        } catch (java.io.IOException e) {
            // full
        }
        try (var out = Files.newOutputStream(file, java.nio.file.StandardOpenOption.APPEND)) {
            while (true)
                out.write(0);
        } catch (java.io.IOException e) {
            // to the last byte
        }
    }

    private static OperationOptions options() {
        return OperationOptions.until(Instant.now().plusSeconds(60));
    }

}
