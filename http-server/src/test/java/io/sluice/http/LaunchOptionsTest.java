package io.sluice.http;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class LaunchOptionsTest {

    @Test
    void parse_noArguments_givesDefaults() {
        assertEquals(new LaunchOptions(Path.of("apps/default"), OptionalInt.empty(), Optional.empty()), LaunchOptions.parse());
    }

    @Test
    void parse_allOptions() {
        assertEquals(new LaunchOptions(Path.of("my/app"), OptionalInt.of(9090), Optional.of(Path.of("/var/sluice")),
                                       Optional.of("127.0.0.1")),
                     LaunchOptions.parse("--app", "my/app", "--port", "9090", "--data", "/var/sluice", "--host", "127.0.0.1"));
    }

    @Test
    void parse_badPort_namesIt() {
        var e = assertThrows(IllegalArgumentException.class, () -> LaunchOptions.parse("--port", "80x"));
        assertEquals("--port must be a number in [0, 65535], but was '80x'", e.getMessage());
    }

    @Test
    void parse_missingValue_namesOption() {
        var e = assertThrows(IllegalArgumentException.class, () -> LaunchOptions.parse("--app"));
        assertEquals("Option --app needs a value", e.getMessage());
    }

    @Test
    void parse_unknownOption_namesIt() {
        var e = assertThrows(IllegalArgumentException.class, () -> LaunchOptions.parse("--verbose"));
        assertEquals("Unknown option '--verbose'", e.getMessage());
    }

}
