package io.sluice.content.embedded;

import io.sluice.document.Document;
import io.sluice.content.ContentBackend;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The child process of the crash test: feeds {@link CrashWorkload} through an embedded backend, many chains at once,
 * and prints {@code I chain step} before issuing an operation and {@code A chain step} once it is acknowledged. It
 * never closes the store: it runs until killed, or prints {@code DONE} and halts without closing.
 *
 * <p>Arguments: data directory, durability (LOG or SYNC), seed.
 */
final class CrashFeeder {

    private static final int CONCURRENT_CHAINS = 64;

    private CrashFeeder() { }

    public static void main(String[] args) throws InterruptedException {
        Path directory = Path.of(args[0]);
        Durability durability = Durability.valueOf(args[1]);
        CrashWorkload workload = new CrashWorkload(Long.parseLong(args[2]));
        PrintStream out = System.out;
        ContentBackend backend = EmbeddedContentBackend.open(
                EmbeddedOptions.builder(directory, CrashWorkload.TYPES)
                               .durability(durability)
                               .minFreeDiskBytes(0)
                               .blockCacheBytes(8 << 20)
                               .writeBufferBytes(8 << 20)
                               .build());
        out.println("OPEN");
        Semaphore slots = new Semaphore(CONCURRENT_CHAINS);
        CountDownLatch finished = new CountDownLatch(CrashWorkload.CHAINS);
        AtomicInteger failures = new AtomicInteger();
        for (int chain = 0; chain < CrashWorkload.CHAINS; chain++) {
            slots.acquire();
            int current = chain;
            runChain(backend, workload, current, 0, out, failures).whenComplete((ignored, failure) -> {
                slots.release();
                finished.countDown();
            });
        }
        finished.await();
        out.println("DONE " + failures.get());
        out.flush();
        Runtime.getRuntime().halt(0);
    }

    private static CompletableFuture<Void> runChain(ContentBackend backend, CrashWorkload workload, int chain,
                                                    int step, PrintStream out, AtomicInteger failures) {
        if (step == workload.steps(chain)) {
            return CompletableFuture.completedFuture(null);
        }
        Optional<Document> document = workload.document(chain, step);
        OperationOptions options = OperationOptions.until(Instant.now().plusSeconds(600));
        print(out, "I " + chain + " " + step);
        CompletableFuture<Outcome> operation = document.isPresent()
                                               ? backend.put(document.get(), options)
                                               : backend.remove(CrashWorkload.id(chain), options);
        return operation.thenCompose(outcome -> {
            if (!outcome.isSuccess()) {
                failures.incrementAndGet();
                print(out, "F " + chain + " " + step + " " + outcome);
                return CompletableFuture.completedFuture(null);
            }
            print(out, "A " + chain + " " + step);
            return runChain(backend, workload, chain, step + 1, out, failures);
        });
    }

    /** One whole line per write, so the parent never reads half of one and a kill loses no printed line. */
    private static void print(PrintStream out, String line) {
        synchronized (out) {
            out.println(line);
            out.flush();
        }
    }

}
