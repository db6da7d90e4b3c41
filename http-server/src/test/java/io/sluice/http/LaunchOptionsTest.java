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

    @Test
    void parse_testingOptions() {
        var options = LaunchOptions.parse("--ephemeral", "--port", "0", "--url-file", "u", "--stop-on-stdin-eof");
        assertEquals(new TestingOptions(true, Optional.of(Path.of("u")), true), options.testing());
        assertEquals(Optional.of("127.0.0.1"), options.listenHost());
    }

    @Test
    void parse_ephemeralWithHost_listensThere() {
        assertEquals(Optional.of("0.0.0.0"), LaunchOptions.parse("--ephemeral", "--host", "0.0.0.0").listenHost());
    }

    @Test
    void parse_withoutEphemeral_listensEverywhere() {
        var options = LaunchOptions.parse("--port", "0");
        assertEquals(Optional.empty(), options.listenHost());
        assertEquals(TestingOptions.NONE, options.testing());
    }

    @Test
    void parse_ephemeralWithData_isRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> LaunchOptions.parse("--ephemeral", "--data", "d"));
        assertEquals("--data cannot be combined with --ephemeral, which writes nothing to disk", e.getMessage());
    }

    @Test
    void parse_urlFileWithoutValue_namesOption() {
        var e = assertThrows(IllegalArgumentException.class, () -> LaunchOptions.parse("--url-file"));
        assertEquals("Option --url-file needs a value", e.getMessage());
    }

    @Test
    void parse_badFaults_isAStartUpErrorNamingTheRule() {
        var e = assertThrows(IllegalArgumentException.class, () -> LaunchOptions.parse("--faults", "429@20%,502@1%"));
        assertEquals("--faults: bad fault '502@1%': fault '502' is not one of 429, 503, 504, 507, delay, drop", e.getMessage());
    }

    @Test
    void parse_faultSeedWithoutFaults_isRefused() {
        var e = assertThrows(IllegalArgumentException.class, () -> LaunchOptions.parse("--fault-seed", "1"));
        assertEquals("--fault-seed needs --faults", e.getMessage());
    }

}
