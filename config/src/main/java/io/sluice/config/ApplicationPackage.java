package io.sluice.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A deployed application: a directory with {@code services.xml} and {@code schemas/*.sd}, as in Vespa.
 *
 * @param directory   the application package directory
 * @param services    the parsed {@code services.xml}
 * @param schemaFiles the {@code schemas/*.sd} files, sorted by name; their content is parsed by the document API
 * @param warnings    what the loader passed over (unknown or unsupported elements), each naming file, line and element
 * @param skipped     what a load that skips unsupported parts ({@link ApplicationPackageLoader#loadSkippingUnsupported})
 *                    left out although it changes what is stored, each naming file, line and element; empty otherwise
 */
public record ApplicationPackage(Path directory, Services services, List<Path> schemaFiles, List<String> warnings,
                                 List<String> skipped) {

    public ApplicationPackage {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(services, "services");
        schemaFiles = List.copyOf(schemaFiles);
        warnings = List.copyOf(warnings);
        skipped = List.copyOf(skipped);
    }

    /** A package with nothing skipped. */
    public ApplicationPackage(Path directory, Services services, List<Path> schemaFiles, List<String> warnings) {
        this(directory, services, schemaFiles, warnings, List.of());
    }

}
