package io.sluice.http;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.sluice.config.AccessLogConfig;
import io.sluice.config.ApplicationPackage;
import io.sluice.config.ApplicationPackageLoader;
import io.sluice.config.ConfigException;
import io.sluice.config.ContainerCluster;
import io.sluice.config.ServerConfig;
import io.sluice.container.ApplicationInfo;
import io.sluice.container.FatalErrors;
import io.sluice.container.faults.Faults;
import io.sluice.container.faults.FaultsHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.net.URI;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.function.IntConsumer;

/**
 * The server process: {@code serve [--app DIR] [--port N] [--data DIR] [--host ADDRESS]} and the testing options
 * ({@link TestingOptions}).
 */
public final class Main {

    private static final Logger log = LoggerFactory.getLogger(Main.class);

    /** The exit code after an {@link OutOfMemoryError} in request handling (as {@code sysexits.h}'s EX_SOFTWARE). */
    static final int FATAL_EXIT_CODE = 70;

    static final String USAGE = "Usage: sluice serve [--app DIR] [--port N] [--data DIR] [--host ADDRESS]\n"
                                + "                    [--ephemeral] [--url-file FILE] [--stop-on-stdin-eof]\n"
                                + "                    [--faults SPEC [--fault-seed N]] [--skip-unsupported]";

    /**
     * The start of the one line on standard output that gives the URL of a started server, for programs that start it:
     * {@code sluice-url http://127.0.0.1:43123/}, the prefix and one space, then the URL of the server {@code --port}
     * applies to (the first cleartext one, else the first), ending with {@code /}.
     */
    public static final String URL_LINE_PREFIX = "sluice-url ";

    private Main() { }

    public static void main(String[] args) {
        int code = run(args, System.in, System.out, System.err, System::exit);
        if (code != 0)
            System.exit(code);
    }

    /** {@link #run(String[], InputStream, PrintStream, PrintStream, IntConsumer)} without a standard input to watch. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, InputStream.nullInputStream(), out, err, code -> {
            throw new IllegalStateException("exit(" + code + ") without --stop-on-stdin-eof");
        });
    }

    /**
     * Runs a command. {@code serve} returns 0 once the server has started (it stops on SIGTERM), 1 for a bad application
     * package, a port that cannot be bound or another start-up failure (reported in one line), and 2 for bad arguments.
     * With {@code --stop-on-stdin-eof}, a thread reads {@code in} to its end, then stops the server and calls
     * {@code exit} with 0.
     */
    static int run(String[] args, InputStream in, PrintStream out, PrintStream err, IntConsumer exit) {
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
            URI url = server.uri(server.cluster().servers().get(portIndex(server.cluster())).id());
            if (options.testing().urlFile().isPresent()) {
                try {
                    writeAtomically(options.testing().urlFile().get(), url + "\n");
                }
                catch (UncheckedIOException e) {
                    server.stop(); // whoever waits for the file would never learn of this server
                    throw e;
                }
            }
            out.println(URL_LINE_PREFIX + url);
            out.flush();
            if (options.testing().stopOnStdinEof())
                StdinWatch.start(in, () -> {
                    log.info("Standard input ended: stopping");
                    server.stop();
                    exit.accept(0);
                });
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
        ApplicationPackage application = options.testing().skipUnsupported()
                ? ApplicationPackageLoader.loadSkippingUnsupported(directory)
                : ApplicationPackageLoader.load(directory);
        application.warnings().forEach(warning -> log.warn("{}", warning));
        if ( ! application.skipped().isEmpty())
            log.warn("--skip-unsupported: NOT SERVING THIS APPLICATION AS VESPA WOULD. Left out {} part(s) that change "
                     + "what is stored; use this server for tests only:\n  {}", application.skipped().size(),
                     String.join("\n  ", application.skipped()));
        ContainerCluster cluster = withPort(application.services().served(), options);
        if (options.testing().ephemeral())
            cluster = ephemeral(cluster);
        var info = new ApplicationInfo(String.valueOf(directory.getFileName()), directory.toString(), checksum(services),
                                       1, Instant.now());
        SluiceServer.Builder builder = SluiceServer.builder(cluster).application(info);
        options.listenHost().ifPresent(builder::host);
        DocumentApi.mount(builder, application, cluster, options.testing().ephemeral() ? Engines.ephemeral()
                                                                                        : Engines.all(options),
                          faults(options.testing()));
        SluiceServer server = builder.build();
        server.start();
        return server;
    }

    /**
     * The cluster with {@code --port} applied to its first cleartext server (or its first server if all use TLS); with
     * {@code --ephemeral}, every other server listens on a free port, so that servers of one package started by
     * parallel tests do not collide.
     */
    static ContainerCluster withPort(ContainerCluster cluster, LaunchOptions options) {
        if (options.port().isEmpty() && ! options.testing().ephemeral())
            return cluster;
        List<ServerConfig> servers = new ArrayList<>(cluster.servers());
        int index = portIndex(cluster);
        for (int i = 0; i < servers.size(); i++) {
            if (i == index)
                options.port().ifPresent(port -> servers.set(index, servers.get(index).withPort(port)));
            else if (options.testing().ephemeral())
                servers.set(i, servers.get(i).withPort(0));
        }
        return new ContainerCluster(cluster.id(), servers, cluster.documentApi(), cluster.handlers(), cluster.accessLog(),
                                    cluster.stopTimeout(), cluster.clients());
    }

    /** The faults of {@code --faults}, announced once at start with their seed, so a failing run can be repeated. */
    static Optional<Faults> faults(TestingOptions options) {
        if (options.faults().isEmpty())
            return Optional.empty();
        long seed = options.faultSeed().orElseGet(() -> new SecureRandom().nextLong());
        log.warn("Injecting faults into /document/v1: {} (seed {}; --fault-seed {} repeats the draws); change them at {}",
                 options.faults().get(), seed, seed, FaultsHandler.PATH);
        return Optional.of(Faults.of(options.faults().get(), seed));
    }

    /** The index of the server {@code --port} applies to: the first cleartext one, else the first. */
    static int portIndex(ContainerCluster cluster) {
        for (int i = 0; i < cluster.servers().size(); i++)
            if (cluster.servers().get(i).ssl().isEmpty())
                return i;
        return 0;
    }

    /** An ephemeral server writes nothing to disk: an access log to a file is not written, with a warning. */
    static ContainerCluster ephemeral(ContainerCluster cluster) {
        if (cluster.accessLog().file().isEmpty())
            return cluster;
        log.warn("--ephemeral: the access log to {} is not written (an ephemeral server writes nothing to disk)",
                 cluster.accessLog().file().get());
        return new ContainerCluster(cluster.id(), cluster.servers(), cluster.documentApi(), cluster.handlers(),
                                    AccessLogConfig.disabled(), cluster.stopTimeout(), cluster.clients());
    }

    /** Writes {@code text} to a file beside {@code file} and renames it, so a reader sees all of it or no file. */
    static void writeAtomically(Path file, String text) {
        Path absolute = file.toAbsolutePath();
        Path partial = absolute.resolveSibling(absolute.getFileName() + "." + ProcessHandle.current().pid() + ".partial");
        try {
            Files.writeString(partial, text);
            Files.move(partial, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        }
        catch (IOException e) {
            try {
                Files.deleteIfExists(partial);
            }
            catch (IOException ignored) {
                // The write's failure is what to report.
            }
            throw new UncheckedIOException("Cannot write the URL to --url-file " + file + ": " + e.getMessage(), e);
        }
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
