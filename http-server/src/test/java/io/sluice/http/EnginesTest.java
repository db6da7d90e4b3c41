package io.sluice.http;

import io.sluice.config.ApplicationPackageLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EnginesTest {

    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    @Test
    void defaultBlockCache_isFivePercentOfMemory_sharedAmongTheStores() {
        assertEquals(20 * GIB / 100 * 5, Engines.defaultBlockCacheBytes(20 * GIB, 1));
        assertEquals(20 * GIB / 100 * 5 / 2, Engines.defaultBlockCacheBytes(20 * GIB, 2));
        assertEquals(20 * GIB / 100 * 5, Engines.defaultBlockCacheBytes(20 * GIB, 0), "as for one");
    }

    @Test
    void defaultBlockCache_isAtLeast64MiB() {
        assertEquals(64 * MIB, Engines.defaultBlockCacheBytes(GIB, 1));
        assertEquals(64 * MIB, Engines.defaultBlockCacheBytes(20 * GIB, 64));
        assertEquals(64 * MIB, Engines.defaultBlockCacheBytes(0, 1), "memory unknown");
    }

    @Test
    void theStoresSharingTheCache_areTheEmbeddedClusters(@TempDir Path directory) throws IOException {
        Files.createDirectories(directory.resolve("schemas"));
        StringBuilder services = new StringBuilder("<services version=\"1.0\">\n<container id=\"default\" version="
                                                   + "\"1.0\"><http><server id=\"plain\" port=\"0\"/></http>"
                                                   + "</container>\n");
        String[][] clusters = { { "a", "<embedded/>" }, { "b", "<memory/>" }, { "c", "<embedded/>" } };
        for (String[] cluster : clusters) {
            Files.writeString(directory.resolve("schemas/" + cluster[0] + ".sd"),
                              "schema " + cluster[0] + " { document " + cluster[0] + " { field f type string {} } }\n");
            services.append("<content id=\"").append(cluster[0]).append("\" version=\"1.0\"><min-redundancy>1")
                    .append("</min-redundancy><documents><document type=\"").append(cluster[0])
                    .append("\" mode=\"index\"/></documents><engine>").append(cluster[1]).append("</engine><nodes>")
                    .append("<node hostalias=\"node1\" distribution-key=\"0\"/></nodes></content>\n");
        }
        Files.writeString(directory.resolve("services.xml"), services.append("</services>\n").toString());

        assertEquals(2, Engines.embeddedClusters(ApplicationPackageLoader.load(directory)));
    }
}
