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
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fills a really small file system until RocksDB itself runs out of space (the free-space threshold off), which
 * needs such a file system: run with {@code -Dsluice.smallfs=/mnt/small} on e.g. a 16 MiB tmpfs
 * ({@code mount -t tmpfs -o size=16m tmpfs /mnt/small}). The threshold path is tested always, in
 * {@link EmbeddedStoreTest}.
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

    private static OperationOptions options() {
        return OperationOptions.until(Instant.now().plusSeconds(60));
    }

}
