package io.sluice.content.embedded;

import io.sluice.document.Document;
import io.sluice.document.FieldSet;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Kills a feeding child process with SIGKILL after a random number of acknowledged operations, reopens its store and
 * checks that every acknowledged put is readable with its exact content and every acknowledged remove stayed
 * removed. Kill points follow from a seed: {@code -Dsluice.crash.seed=N} picks another set (CI may vary it per run);
 * a failure message names the seed to reproduce it.
 */
class EmbeddedCrashTest {

    private static final long BASE_SEED = Long.getLong("sluice.crash.seed", 20261122L);
    private static final int MIN_ACKS_BEFORE_KILL = 100;
    private static final int MAX_ACKS_BEFORE_KILL = 2500;
    private static final long CHILD_TIMEOUT_SECONDS = 120;

    @TempDir
    Path directory;

    static Stream<Arguments> killPoints() {
        List<Arguments> runs = new ArrayList<>();
        for (Durability durability : Durability.values()) {
            for (int run = 0; run < 3; run++) {
                long seed = BASE_SEED * 31 + durability.ordinal() * 7 + run;
                // The child must still be feeding when the kill point comes: at most half of its operations.
                int maxAcks = Math.min(MAX_ACKS_BEFORE_KILL, new CrashWorkload(seed).operations() / 2);
                int killAfter = MIN_ACKS_BEFORE_KILL + new Random(seed).nextInt(maxAcks - MIN_ACKS_BEFORE_KILL);
                runs.add(Arguments.of(durability, seed, killAfter));
            }
        }
        return runs.stream();
    }

    @ParameterizedTest(name = "{0}, seed {1}, kill after {2} acks")
    @MethodSource("killPoints")
    void sigkill_afterAcknowledgedWrites_losesNoneOfThem(Durability durability, long seed, int killAfter)
            throws IOException, InterruptedException, ExecutionException, TimeoutException {
        Map<Integer, Chain> chains = feedAndKill(durability, seed, killAfter);
        CrashWorkload workload = new CrashWorkload(seed);
        try (EmbeddedContentBackend backend = EmbeddedContentBackend.open(
                EmbeddedOptions.builder(directory.resolve("store"), CrashWorkload.TYPES).minFreeDiskBytes(0).build())) {
            for (int chain = 0; chain < CrashWorkload.CHAINS; chain++) {
                Chain log = chains.getOrDefault(chain, new Chain());
                Outcome stored = backend.get(CrashWorkload.id(chain), FieldSet.all(),
                                             OperationOptions.until(Instant.now().plusSeconds(60)))
                                        .get(30, TimeUnit.SECONDS);
                if (!log.acceptableSteps().contains(stepHeld(workload, chain, log, stored.document()))) {
                    fail("Seed " + seed + ", " + durability + ": chain " + chain + " acknowledged up to step "
                         + log.acknowledged + " and issued up to " + log.issued + ", but the store holds " + stored);
                }
            }
        }
    }

    /** Which of the chain's acceptable steps left exactly {@code found} in the store, or -2 if none did. */
    private static int stepHeld(CrashWorkload workload, int chain, Chain log, Optional<Document> found) {
        for (int step : log.acceptableSteps()) {
            if (expected(workload, chain, step).equals(found)) {
                return step;
            }
        }
        return -2;
    }

    private static Optional<Document> expected(CrashWorkload workload, int chain, int step) {
        return step < 0 ? Optional.empty() : workload.document(chain, step);
    }

    /** Runs the child until it acknowledged {@code killAfter} operations, SIGKILLs it, and returns what it printed. */
    private Map<Integer, Chain> feedAndKill(Durability durability, long seed, int killAfter)
            throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                                           CrashFeeder.class.getName(), directory.resolve("store").toString(),
                                           durability.name(), Long.toString(seed))
                .redirectError(directory.resolve("child.err").toFile())
                .start();
        // A hung child would block readLine forever; killing it ends the output, and the test fails below.
        CompletableFuture.delayedExecutor(CHILD_TIMEOUT_SECONDS, TimeUnit.SECONDS)
                         .execute(() -> child.toHandle().destroyForcibly());
        Map<Integer, Chain> chains = new HashMap<>();
        int acknowledged = 0;
        boolean killed = false;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(child.getInputStream(),
                                                                             StandardCharsets.UTF_8))) {
            for (String line; (line = lines.readLine()) != null; ) {
                String[] parts = line.split(" ");
                if (parts[0].equals("I") || parts[0].equals("A")) {
                    Chain chain = chains.computeIfAbsent(Integer.parseInt(parts[1]), key -> new Chain());
                    int step = Integer.parseInt(parts[2]);
                    if (parts[0].equals("I")) {
                        chain.issued = step;
                    } else {
                        chain.acknowledged = step;
                        if (++acknowledged == killAfter && !killed) {
                            // SIGKILL through the handle: Process.destroyForcibly would also close the pipe, losing
                            // the lines the child printed just before it died.
                            child.toHandle().destroyForcibly();
                            killed = true;
                        }
                    }
                } else if (parts[0].equals("F")) {
                    fail("The child's operation failed: " + line);
                }
            }
        } finally {
            child.destroyForcibly();
            child.waitFor(30, TimeUnit.SECONDS);
        }
        assertTrue(killed, "The child finished before " + killAfter + " acknowledgements; exit code "
                           + child.exitValue());
        assertEquals(137, child.exitValue(), "The child should have died from SIGKILL");
        return chains;
    }

    /** What the child printed about one chain: the last step issued and the last acknowledged, -1 for none. */
    private static final class Chain {

        int issued = -1;
        int acknowledged = -1;

        /** Steps whose result the store may hold: the last acknowledged one, or the one issued after it. */
        List<Integer> acceptableSteps() {
            return issued > acknowledged ? List.of(acknowledged, issued) : List.of(acknowledged);
        }

    }

}
