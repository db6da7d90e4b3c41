package io.sluice.http;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The options of {@code serve}.
 *
 * @param application   the application package directory ({@code --app}, default {@code apps/default})
 * @param port          overrides the port of the first cleartext server ({@code --port})
 * @param dataDirectory where content is stored ({@code --data}); empty means as the package says
 * @param host          the one interface to listen on ({@code --host}, e.g. {@code 127.0.0.1}); empty means all
 * @param testing       the options for running as a stand-in for Vespa in tests
 */
public record LaunchOptions(Path application, OptionalInt port, Optional<Path> dataDirectory, Optional<String> host,
                            TestingOptions testing) {

    public static final Path DEFAULT_APPLICATION = Path.of("apps", "default");

    public LaunchOptions {
        Objects.requireNonNull(application, "application");
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(testing, "testing");
        if (testing.ephemeral() && dataDirectory.isPresent())
            throw new IllegalArgumentException("--data cannot be combined with --ephemeral, which writes nothing to disk");
    }

    /** Options without the testing ones. */
    public LaunchOptions(Path application, OptionalInt port, Optional<Path> dataDirectory, Optional<String> host) {
        this(application, port, dataDirectory, host, TestingOptions.NONE);
    }

    /** Options listening on all interfaces. */
    public LaunchOptions(Path application, OptionalInt port, Optional<Path> dataDirectory) {
        this(application, port, dataDirectory, Optional.empty());
    }

    /**
     * The interface to listen on: {@code --host}, else loopback ({@code 127.0.0.1}) for an ephemeral server, else all.
     */
    public Optional<String> listenHost() {
        return host.or(() -> testing.ephemeral() ? Optional.of("127.0.0.1") : Optional.empty());
    }

    /**
     * Parses the arguments after {@code serve}.
     *
     * @throws IllegalArgumentException naming an unknown option, a missing value, a bad port or fault spec, or options
     *                                  that contradict each other
     */
    public static LaunchOptions parse(String... args) {
        Path application = DEFAULT_APPLICATION;
        OptionalInt port = OptionalInt.empty();
        Optional<Path> data = Optional.empty();
        Optional<String> host = Optional.empty();
        TestingOptions.Builder testing = TestingOptions.builder();
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "--app": application = Path.of(value(args, ++i, option)); break;
                case "--data": data = Optional.of(Path.of(value(args, ++i, option))); break;
                case "--port": port = OptionalInt.of(port(value(args, ++i, option))); break;
                case "--host": host = Optional.of(value(args, ++i, option)); break;
                default:
                    if (testing.option(option))
                        break;
                    if (testing.optionWithValue(option)) {
                        testing.option(option, value(args, ++i, option));
                        break;
                    }
                    throw new IllegalArgumentException("Unknown option '" + option + "'");
            }
        }
        return new LaunchOptions(application, port, data, host, testing.build());
    }

    static String value(String[] args, int i, String option) {
        if (i >= args.length)
            throw new IllegalArgumentException("Option " + option + " needs a value");
        return args[i];
    }

    private static int port(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 0 && port <= 65535)
                return port;
        }
        catch (NumberFormatException ignored) {
            // Reported below with the value.
        }
        throw new IllegalArgumentException("--port must be a number in [0, 65535], but was '" + value + "'");
    }

}
