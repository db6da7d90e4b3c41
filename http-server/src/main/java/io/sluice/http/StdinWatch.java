package io.sluice.http;

import java.io.IOException;
import java.io.InputStream;

/**
 * Reads a stream to its end on a daemon thread of its own, discarding what it reads, then runs an action: how a server
 * started with {@code --stop-on-stdin-eof} learns that the program that started it (and holds the other end of its
 * standard input) has gone, even when that program was killed.
 */
final class StdinWatch {

    private StdinWatch() { }

    /** Starts watching {@code in}; {@code onEnd} runs once, when it ends or fails to read. */
    static Thread start(InputStream in, Runnable onEnd) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[4096];
            try {
                while (in.read(buffer) >= 0) {
                    // Input is ignored: only its end matters.
                }
            }
            catch (IOException e) {
                // A standard input that cannot be read any more has ended too.
            }
            onEnd.run();
        }, "sluice-stdin-watch");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

}
