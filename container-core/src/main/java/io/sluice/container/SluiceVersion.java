package io.sluice.container;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The project version, from the build (a filtered {@code sluice-version.properties}). */
public final class SluiceVersion {

    private static final String version = load();

    private SluiceVersion() { }

    /** The project version, e.g. {@code 0.1.0-SNAPSHOT}. */
    public static String version() {
        return version;
    }

    private static String load() {
        try (InputStream in = SluiceVersion.class.getResourceAsStream("/sluice-version.properties")) {
            if (in == null)
                throw new IllegalStateException("sluice-version.properties is missing from the class path");
            var properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

}
