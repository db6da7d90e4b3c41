package io.sluice.container;

import java.time.Instant;
import java.util.Objects;

/**
 * What {@code /ApplicationStatus} says about the running application.
 *
 * @param name      the application name (the package directory's name)
 * @param path      the application package directory
 * @param checksum  a digest of {@code services.xml}, hex
 * @param generation the config generation; Sluice deploys once per process, so 1
 * @param started   when the server started
 */
public record ApplicationInfo(String name, String path, String checksum, long generation, Instant started) {

    public ApplicationInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(checksum, "checksum");
        Objects.requireNonNull(started, "started");
    }

}
