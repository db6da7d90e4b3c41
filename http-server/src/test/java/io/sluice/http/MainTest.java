package io.sluice.http;

import io.sluice.config.AccessLogConfig;
import io.sluice.config.ConnectorConfig;
import io.sluice.config.ContainerCluster;
import io.sluice.config.ServerConfig;
import io.sluice.config.SslConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The process entry point, without starting a server: loading real services.xml files is the config module's
 * ApplicationPackageLoader, exercised end to end by the launcher.
 */
class MainTest {

    @TempDir
    Path directory;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void serve_missingApplication_exits1WithMessage() {
        Path missing = directory.resolve("nope");
        assertEquals(1, run("serve", "--app", missing.toString()));
        assertEquals("Invalid application package " + missing + ": No services.xml in " + missing.toAbsolutePath() + "\n",
                     err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void serve_badOption_exits2WithUsage() {
        assertEquals(2, run("serve", "--port", "x"));
        assertEquals("--port must be a number in [0, 65535], but was 'x'\n" + Main.USAGE + "\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void unknownCommand_exits2() {
        assertEquals(2, run("deploy"));
    }

    @Test
    void help_printsUsage() {
        assertEquals(0, run("help"));
        assertEquals(Main.USAGE + "\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void withPort_overridesFirstCleartextServer() {
        var ssl = new SslConfig(Path.of("k"), Path.of("c"), Optional.empty(), SslConfig.ClientAuthentication.DISABLED, List.of(), List.of());
        var tls = new ServerConfig("tls", 8443, Optional.of(ssl), ConnectorConfig.defaults());
        var cluster = new ContainerCluster("c", List.of(tls, ServerConfig.cleartext("plain", 8080), ServerConfig.cleartext("other", 8081)),
                                           Optional.empty(), List.of(), AccessLogConfig.disabled(), Duration.ofSeconds(1));
        var options = new LaunchOptions(Path.of("app"), OptionalInt.of(9999), Optional.empty());
        assertEquals(List.of(8443, 9999, 8081),
                     Main.withPort(cluster, options).servers().stream().map(ServerConfig::port).toList());
    }

    @Test
    void withPort_keepsClients() {
        var client = new io.sluice.config.ClientConfig("reader", java.util.Set.of(io.sluice.config.ClientConfig.Permission.READ),
                                                       List.of(), List.of("token"));
        var cluster = new ContainerCluster("c", List.of(ServerConfig.cleartext("plain", 8080)), Optional.empty(), List.of(),
                                           AccessLogConfig.disabled(), Duration.ofSeconds(1), List.of(client));
        var options = new LaunchOptions(Path.of("app"), OptionalInt.of(0), Optional.empty());
        assertEquals(List.of(client), Main.withPort(cluster, options).clients());
    }

    @Test
    void withPort_ephemeral_movesOtherServersToFreePorts() {
        var cluster = new ContainerCluster("c", List.of(ServerConfig.cleartext("plain", 8080), ServerConfig.cleartext("other", 8081)),
                                           Optional.empty(), List.of(), AccessLogConfig.disabled(), Duration.ofSeconds(1));
        var options = LaunchOptions.parse("--app", "app", "--ephemeral", "--port", "9999");
        assertEquals(List.of(9999, 0), Main.withPort(cluster, options).servers().stream().map(ServerConfig::port).toList());
    }

}
