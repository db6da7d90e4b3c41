package io.sluice.bench;

import io.sluice.document.Document;
import io.sluice.document.FieldSet;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.embedded.Durability;
import io.sluice.content.embedded.EmbeddedContentBackend;
import io.sluice.content.embedded.EmbeddedOptions;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Puts and gets of 1 KiB documents through the content-backend SPI of the embedded RocksDB store, with
 * {@link #WINDOW} operations in flight (as a feed client keeps them), in both durability modes. Scores are
 * operations per second. Gets read uniformly random ids among {@link #documents} preloaded ones, so with the default
 * 64 MiB block cache and many documents they also measure disk (page cache) reads.
 *
 * <pre>java -jar jmh-benchmarks/target/benchmarks.jar EmbeddedBackendBenchmark -p documents=1000000</pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 10)
@Fork(1)
public class EmbeddedBackendBenchmark {

    /** Operations kept in flight by each benchmark thread. */
    static final int WINDOW = 64;

    @Param({ "LOG", "SYNC" })
    public Durability durability;

    @Param({ "100000" })
    public int documents;

    private Path directory;
    private EmbeddedContentBackend backend;
    private Document[] pool;
    private long nextPut;

    @Setup(Level.Trial)
    public void open() throws IOException {
        directory = Files.createTempDirectory("sluice-bench-embedded");
        backend = EmbeddedContentBackend.open(EmbeddedOptions.builder(directory, BenchDocuments.TYPES)
                                                             .durability(durability)
                                                             .minFreeDiskBytes(0)
                                                             .build());
        pool = new Document[4096];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = BenchDocuments.document(i);
        }
        CompletableFuture<?>[] window = new CompletableFuture<?>[WINDOW];
        for (int n = 0; n < documents; n += WINDOW) {
            for (int i = 0; i < WINDOW; i++) {
                window[i] = backend.put(BenchDocuments.document(n + i), options());
            }
            CompletableFuture.allOf(window).join();
        }
        nextPut = documents;
    }

    @TearDown(Level.Trial)
    public void close() throws IOException {
        backend.close();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static OperationOptions options() {
        return OperationOptions.until(Instant.now().plusSeconds(600));
    }

    /** New 1 KiB documents (their fields reused from a pool, so building them costs nothing measurable). */
    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public void put(Blackhole sink) {
        CompletableFuture<?>[] window = new CompletableFuture<?>[WINDOW];
        long first;
        synchronized (this) {
            first = nextPut;
            nextPut += WINDOW;
        }
        for (int i = 0; i < WINDOW; i++) {
            Document fields = pool[(int) ((first + i) % pool.length)];
            Document document = Document.builder(BenchDocuments.TYPE, BenchDocuments.id(first + i))
                                        .set("title", fields.value("title").orElseThrow())
                                        .set("year", fields.value("year").orElseThrow())
                                        .set("body", fields.value("body").orElseThrow())
                                        .build();
            window[i] = backend.put(document, options());
        }
        sink.consume(CompletableFuture.allOf(window).join());
    }

    /** Random preloaded documents, decoded in full. */
    @Benchmark
    @OperationsPerInvocation(WINDOW)
    public void get(Blackhole sink) {
        List<CompletableFuture<Outcome>> window = new ArrayList<>(WINDOW);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < WINDOW; i++) {
            window.add(backend.get(BenchDocuments.id(random.nextInt(documents)), FieldSet.all(), options()));
        }
        for (CompletableFuture<Outcome> outcome : window) {
            Outcome result = outcome.join();
            if (!result.isSuccess()) {
                throw new IllegalStateException("Get failed: " + result);
            }
            sink.consume(result);
        }
    }

}
