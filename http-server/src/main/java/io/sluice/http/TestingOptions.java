package io.sluice.http;

import io.sluice.container.faults.FaultPlan;
import io.sluice.container.faults.FaultSpec;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The options of {@code serve} for running as a stand-in for Vespa in an application's tests.
 *
 * @param ephemeral        {@code --ephemeral}: every content cluster on the in-memory engine whatever its
 *                         {@code <engine>}, nothing written to disk, and loopback only unless {@code --host} says
 *                         otherwise
 * @param urlFile          {@code --url-file F}: where to write the server's URL, atomically, once it serves
 * @param stopOnStdinEof   {@code --stop-on-stdin-eof}: stop gracefully and exit when standard input ends, so a test
 *                         that dies takes its server with it
 * @param faults           {@code --faults SPEC}: the faults to inject from the start ({@link FaultSpec#parse}); present
 *                         means {@code /sluice/v1/faults} is mounted, even for {@code none}
 * @param faultSeed        {@code --fault-seed N}: the seed of the fault draws; empty means one chosen at start
 * @param skipUnsupported  {@code --skip-unsupported}: start an application package with parts Sluice refuses only
 *                         because it would store other documents than Vespa (document processors), leaving them out
 *                         with one loud warning naming each; access control and TLS are refused as always
 */
public record TestingOptions(boolean ephemeral, Optional<Path> urlFile, boolean stopOnStdinEof,
                             Optional<FaultPlan> faults, OptionalLong faultSeed, boolean skipUnsupported) {

    public static final TestingOptions NONE = new TestingOptions(false, Optional.empty(), false, Optional.empty(),
                                                                 OptionalLong.empty(), false);

    /** Options without faults. */
    public TestingOptions(boolean ephemeral, Optional<Path> urlFile, boolean stopOnStdinEof) {
        this(ephemeral, urlFile, stopOnStdinEof, Optional.empty(), OptionalLong.empty(), false);
    }

    public TestingOptions {
        Objects.requireNonNull(urlFile, "urlFile");
        Objects.requireNonNull(faults, "faults");
        Objects.requireNonNull(faultSeed, "faultSeed");
        if (faultSeed.isPresent() && faults.isEmpty())
            throw new IllegalArgumentException("--fault-seed needs --faults");
    }

    static Builder builder() {
        return new Builder();
    }

    /** Collects the testing options of a command line. */
    static final class Builder {

        private boolean ephemeral;
        private Optional<Path> urlFile = Optional.empty();
        private boolean stopOnStdinEof;
        private Optional<FaultPlan> faults = Optional.empty();
        private OptionalLong faultSeed = OptionalLong.empty();
        private boolean skipUnsupported;

        /** Takes flag {@code option} and returns true, or returns false if it is not a testing flag. */
        boolean option(String option) {
            switch (option) {
                case "--ephemeral": ephemeral = true; return true;
                case "--stop-on-stdin-eof": stopOnStdinEof = true; return true;
                case "--skip-unsupported": skipUnsupported = true; return true;
                default: return false;
            }
        }

        /** Whether {@code option} is a testing option with a value. */
        boolean optionWithValue(String option) {
            return option.equals("--url-file") || option.equals("--faults") || option.equals("--fault-seed");
        }

        /** @throws IllegalArgumentException naming a bad value */
        void option(String option, String value) {
            switch (option) {
                case "--url-file":
                    if (value.isBlank())
                        throw new IllegalArgumentException("--url-file must not be empty");
                    urlFile = Optional.of(Path.of(value));
                    break;
                case "--faults":
                    try {
                        faults = Optional.of(FaultSpec.parse(value));
                    }
                    catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException("--faults: " + e.getMessage(), e);
                    }
                    break;
                case "--fault-seed":
                    try {
                        faultSeed = OptionalLong.of(Long.parseLong(value));
                    }
                    catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--fault-seed must be an integer, but was '" + value + "'", e);
                    }
                    break;
                default:
                    throw new IllegalArgumentException("Unknown option '" + option + "'");
            }
        }

        TestingOptions build() {
            return new TestingOptions(ephemeral, urlFile, stopOnStdinEof, faults, faultSeed, skipUnsupported);
        }

    }

}
