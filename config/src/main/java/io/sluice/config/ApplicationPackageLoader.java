package io.sluice.config;

import java.nio.file.Path;

/** Reads an application package directory into an {@link ApplicationPackage}. */
public final class ApplicationPackageLoader {

    private ApplicationPackageLoader() { }

    /**
     * Loads {@code services.xml} and lists {@code schemas/*.sd} under {@code directory}.
     *
     * @throws ConfigException if the package is missing, malformed, or has invalid values
     */
    public static ApplicationPackage load(Path directory) {
        throw new UnsupportedOperationException("not yet implemented");
    }

}
