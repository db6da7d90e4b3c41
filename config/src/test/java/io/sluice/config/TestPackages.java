package io.sluice.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes small application packages for tests. */
final class TestPackages {

    private TestPackages() { }

    /** Writes {@code services} as services.xml in {@code directory}, with an empty schema for each of {@code schemas}. */
    static Path write(Path directory, String services, String... schemas) {
        try {
            Files.createDirectories(directory);
            Files.writeString(directory.resolve("services.xml"), services);
            if (schemas.length > 0) Files.createDirectories(directory.resolve("schemas"));
            for (String schema : schemas)
                Files.writeString(directory.resolve("schemas").resolve(schema + ".sd"),
                                  "schema " + schema + " {\n    document " + schema + " {\n    }\n}\n");
            return directory;
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ApplicationPackage load(Path directory, String services, String... schemas) {
        return ApplicationPackageLoader.load(write(directory, services, schemas));
    }

    /** A package with one container, whose children are {@code containerBody}; the container starts on line 2. */
    static ApplicationPackage loadContainer(Path directory, String containerBody) {
        return load(directory, "<services version=\"1.0\">\n<container id=\"default\" version=\"1.0\">\n"
                               + containerBody + "</container>\n</services>\n");
    }

    /** The single container of a package loaded by {@link #loadContainer}. */
    static ContainerCluster container(Path directory, String containerBody) {
        return loadContainer(directory, containerBody).services().containers().get(0);
    }

    /** A package with a container and one content cluster, whose children are {@code contentBody}, and schema music. */
    static ApplicationPackage loadContent(Path directory, String contentBody) {
        return load(directory, "<services version=\"1.0\">\n<container id=\"default\" version=\"1.0\"/>\n"
                               + "<content id=\"music\" version=\"1.0\">\n" + contentBody + "</content>\n</services>\n",
                    "music");
    }

}
