package io.sluice.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The JSON access log: one line per request. Off by default.
 *
 * @param enabled whether to log
 * @param file    where to write; empty means standard output
 */
public record AccessLogConfig(boolean enabled, Optional<Path> file) {

    public AccessLogConfig {
        Objects.requireNonNull(file, "file");
    }

    public static AccessLogConfig disabled() {
        return new AccessLogConfig(false, Optional.empty());
    }

}
