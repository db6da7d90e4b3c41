package io.sluice.http;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.sluice.config.ApplicationPackage;
import io.sluice.config.ApplicationPackageLoader;
import io.sluice.config.ConfigException;
import io.sluice.config.ContainerCluster;
import io.sluice.config.ServerConfig;
import io.sluice.container.ApplicationInfo;
import io.sluice.container.FatalErrors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/** The server process: {@code serve [--app DIR] [--port N] [--data DIR] [--host ADDRESS]}. */
public final class Main {

    private static final Logger log = LoggerFactory.getLogger(Main.class);

    /** The exit code after an {@link OutOfMemoryError} in request handling (as {@code sysexits.h}'s EX_SOFTWARE). */
    static final int FATAL_EXIT_CODE = 70;

    static final String USAGE = "Usage: sluice serve [--app DIR] [--port N] [--data DIR] [--host ADDRESS]";

    private Main() { }

    public static void main(String[] args) {
        int code = run(args, System.out, System.err);
        if (code != 0)
            System.exit(code);
    }

    /**
     * Runs a command. {@code serve} returns 0 once the server has started (it stops on SIGTERM), 1 for a bad application
     * package, a port that cannot be bound or another start-up failure (reported in one line), and 2 for bad arguments.
     */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("help") || args[0].equals("--help")) {
            (args.length == 0 ? err : out).println(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        if ( ! args[0].equals("serve")) {
            err.println("Unknown command '" + args[0] + "'\n" + USAGE);
            return 2;
        }
        LaunchOptions options;
        try {
            options = LaunchOptions.parse(Arrays.copyOfRange(args, 1, args.length));
        }
        catch (IllegalArgumentException e) {
            err.println(e.getMessage() + "\n" + USAGE);
            return 2;
        }
        try {
            warnUnlessExitOnOutOfMemory();
            SluiceServer server = serve(options);
            FatalErrors.onFatal(error -> {
                // The log line is written; leave the rotation and exit without the graceful stop, which needs memory.
                server.health().down();
                Runtime.getRuntime().halt(FATAL_EXIT_CODE);
            });
            Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "sluice-shutdown"));
            for (ServerConfig config : server.cluster().servers())
                out.println("Sluice listening on " + server.uri(config.id()) + " (server '" + config.id() + "')");
            return 0;
        }
        catch (ConfigException e) {
            err.println("Invalid application package " + options.application() + ": " + e.getMessage());
            return 1;
        }
        catch (UncheckedIOException e) {
            err.println(e.getMessage());
            return 1;
        }
        catch (RuntimeException e) {
            // E.g. a store that cannot open on a full disk, or an access log that cannot be created: one clear line for
            // the operator; the stack trace is for whoever debugs it.
            log.debug("Start-up failed", e);
            err.println("Sluice failed to start: " + e.getMessage());
            return 1;
        }
    }

    /** The launcher sets {@code -XX:+ExitOnOutOfMemoryError}; a bare {@code java -jar} should too. */
    private static void warnUnlessExitOnOutOfMemory() {
        try {
            var diagnostics = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (diagnostics != null && ! Boolean.parseBoolean(diagnostics.getVMOption("ExitOnOutOfMemoryError").getValue()))
                log.warn("Running without -XX:+ExitOnOutOfMemoryError: an OutOfMemoryError outside request handling would "
                         + "leave the server running in a broken state; ./sluice serve sets it");
        }
        catch (IllegalArgumentException e) {
            // Not a HotSpot JVM: nothing to check.
        }
    }

    /** Loads the application package of {@code options} and starts serving its first container cluster. */
    static SluiceServer serve(LaunchOptions options) {
        Path directory = options.application().toAbsolutePath().normalize();
        Path services = directory.resolve("services.xml");
        if ( ! Files.isRegularFile(services))
            throw new ConfigException("No services.xml in " + directory);
        ApplicationPackage application = ApplicationPackageLoader.load(directory);
        application.warnings().forEach(warning -> log.warn("{}", warning));
        ContainerCluster cluster = withPort(application.services().served(), options);
        var info = new ApplicationInfo(String.valueOf(directory.getFileName()), directory.toString(), checksum(services),
                                       1, Instant.now());
        SluiceServer.Builder builder = SluiceServer.builder(cluster).application(info);
        options.host().ifPresent(builder::host);
        DocumentApi.mount(builder, application, cluster, Engines.all(options));
        SluiceServer server = builder.build();
        server.start();
        return server;
    }

    /** The cluster with {@code --port} applied to its first cleartext server (or its first server if all use TLS). */
    static ContainerCluster withPort(ContainerCluster cluster, LaunchOptions options) {
        if (options.port().isEmpty())
            return cluster;
        List<ServerConfig> servers = new ArrayList<>(cluster.servers());
        int index = 0;
        for (int i = 0; i < servers.size(); i++)
            if (servers.get(i).ssl().isEmpty()) {
                index = i;
                break;
            }
        servers.set(index, servers.get(index).withPort(options.port().getAsInt()));
        return new ContainerCluster(cluster.id(), servers, cluster.documentApi(), cluster.handlers(), cluster.accessLog(),
                                    cluster.stopTimeout());
    }

    private static String checksum(Path file) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        }
        catch (IOException e) {
            throw new ConfigException("Cannot read " + file + ": " + e.getMessage(), e);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}
