package io.sluice.http;

import java.io.IOException;
import java.io.InputStream;

/**
 * {@link Main} as a child process of a test: the same server, but it halts once its standard input ends, so a test
 * JVM that dies (or is killed by a build timeout) never leaves an orphaned server holding a port and a data directory.
 */
public final class ChildServerMain {

    private ChildServerMain() { }

    public static void main(String[] args) {
        Thread guard = new Thread(ChildServerMain::haltWhenInputEnds, "sluice-parent-guard");
        guard.setDaemon(true);
        guard.start();
        Main.main(args);
    }

    private static void haltWhenInputEnds() {
        try (InputStream in = System.in) {
            while (in.read() >= 0) {
                // The parent writes nothing; only the end of the stream matters.
            }
        } catch (IOException e) {
            // A broken pipe means the parent is gone, too.
        }
        Runtime.getRuntime().halt(3);
    }

}
