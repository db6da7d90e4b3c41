package io.sluice.http;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The options of {@code serve} for running as a stand-in for Vespa in an application's tests.
 *
 * @param ephemeral        {@code --ephemeral}: every content cluster on the in-memory engine whatever its
 *                         {@code <engine>}, nothing written to disk, and loopback only unless {@code --host} says
 *                         otherwise
 * @param urlFile          {@code --url-file F}: where to write the server's URL, atomically, once it serves
 * @param stopOnStdinEof   {@code --stop-on-stdin-eof}: stop gracefully and exit when standard input ends, so a test
 *                         that dies takes its server with it
 */
public record TestingOptions(boolean ephemeral, Optional<Path> urlFile, boolean stopOnStdinEof) {

    public static final TestingOptions NONE = new TestingOptions(false, Optional.empty(), false);

    public TestingOptions {
        Objects.requireNonNull(urlFile, "urlFile");
    }

    static Builder builder() {
        return new Builder();
    }

    /** Collects the testing options of a command line. */
    static final class Builder {

        private boolean ephemeral;
        private Optional<Path> urlFile = Optional.empty();
        private boolean stopOnStdinEof;

        /** Takes flag {@code option} and returns true, or returns false if it is not a testing flag. */
        boolean option(String option) {
            switch (option) {
                case "--ephemeral": ephemeral = true; return true;
                case "--stop-on-stdin-eof": stopOnStdinEof = true; return true;
                default: return false;
            }
        }

        /** Whether {@code option} is a testing option with a value. */
        boolean optionWithValue(String option) {
            return option.equals("--url-file");
        }

        /** @throws IllegalArgumentException naming a bad value */
        void option(String option, String value) {
            switch (option) {
                case "--url-file":
                    if (value.isBlank())
                        throw new IllegalArgumentException("--url-file must not be empty");
                    urlFile = Optional.of(Path.of(value));
                    break;
                default:
                    throw new IllegalArgumentException("Unknown option '" + option + "'");
            }
        }

        TestingOptions build() {
            return new TestingOptions(ephemeral, urlFile, stopOnStdinEof);
        }

    }

}
