package io.sluice.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** One run of the command line ({@code sluice feed|visit|copy|diff}) in this JVM, with its exit code and what it printed. */
record Cli(int exit, String out, String err) {

    static Cli run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = io.sluice.feed.cli.Main.run(args, new ByteArrayInputStream(new byte[0]),
                                               new PrintStream(out, true, StandardCharsets.UTF_8),
                                               new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Cli(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

}
