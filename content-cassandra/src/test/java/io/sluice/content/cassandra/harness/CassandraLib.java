package io.sluice.content.cassandra.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Where the child JVMs find Cassandra: the jars the build copied to target/cassandra-lib, plus our test classes. */
final class CassandraLib {

    private CassandraLib() { }

    /** The class path of a node JVM. */
    static String classPath() {
        Path lib = Path.of(System.getProperty("sluice.cassandra.lib", "target/cassandra-lib"));
        List<Path> jars;
        try (Stream<Path> files = Files.list(lib)) {
            jars = files.filter(file -> file.toString().endsWith(".jar")).sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new UncheckedIOException("No Cassandra jars in " + lib.toAbsolutePath()
                                           + ": run the tests with -Pcassandra or -Pcassandra-distributed", e);
        }
        if (jars.stream().noneMatch(jar -> jar.getFileName().toString().startsWith("cassandra-all-"))) {
            throw new IllegalStateException("cassandra-all is missing from " + lib.toAbsolutePath());
        }
        String testClasses = Path.of(NodeMain.class.getProtectionDomain().getCodeSource().getLocation().getPath())
                                 .toString();
        return testClasses + java.io.File.pathSeparator
               + jars.stream().map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
    }

    /** The root under which nodes get their directories. */
    static Path workRoot() {
        return Path.of(System.getProperty("sluice.cassandra.work", "target/cassandra-nodes"));
    }

}
