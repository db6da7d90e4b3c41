package io.sluice.feed.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Arrays;

/** {@code sluice feed …}, {@code sluice visit …}, {@code sluice copy …} and {@code sluice diff …}. */
public final class Main {

    private static final String REFERENCES_PER_CACHE_LINE = "org.eclipse.jetty.util.referencesPerCacheLine";

    private Main() { }

    public static void main(String[] args) {
        // Jetty pads some structures by the references per cache line, and asks the platform MBean server whether oops
        // are compressed to work that out: starting JMX for that took 0.1 s, a third of the start-up of a short visit.
        // 16 is right with compressed oops (heaps under 32 GB), and only means more padding without.
        if (System.getProperty(REFERENCES_PER_CACHE_LINE) == null) System.setProperty(REFERENCES_PER_CACHE_LINE, "16");
        System.exit(run(args, System.in, System.out, System.err, System.console() != null));
    }

    /** Runs a command and returns its exit code: 0 on success, 1 on bad arguments or failure; diff: 0 equal, 1 different, 2 errors. */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
        return run(args, in, out, err, false);
    }

    static int run(String[] args, InputStream in, PrintStream out, PrintStream err, boolean terminal) {
        if (args.length == 0 || args[0].equals("--help") || args[0].equals("help")) {
            (args.length == 0 ? err : out).println("Usage: sluice feed [options] | sluice visit [options] | sluice copy [options] | sluice diff A B [options]; add --help for the options");
            return args.length == 0 ? 1 : 0;
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "feed": return new FeedCommand(out, err, terminal).run(rest, in);
            case "visit": return new VisitCommand(out, err, terminal).run(rest);
            case "copy": return new CopyCommand(out, err, terminal).run(rest);
            case "diff": return new DiffCommand(out, err, terminal).run(rest);
            default:
                err.println("Error: unknown command '" + args[0] + "'; expected 'feed', 'visit', 'copy' or 'diff'");
                return 1;
        }
    }

}
