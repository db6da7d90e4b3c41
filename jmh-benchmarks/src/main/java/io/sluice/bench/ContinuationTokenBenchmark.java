package io.sluice.bench;

import io.sluice.document.Slice;
import io.sluice.content.BucketSpace;
import io.sluice.content.DocumentKey;
import io.sluice.content.ProgressToken;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Visit continuation tokens: encoding a position (after every visited bucket of a streamed visit, once per page of a
 * paged one) and parsing and checking a client's token (once per visit request).
 *
 * <pre>java -jar jmh-benchmarks/target/benchmarks.jar ContinuationTokenBenchmark</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class ContinuationTokenBenchmark {

    static final int POOL = 256;
    static final int DISTRIBUTION_BITS = 8;
    static final Slice SLICE = Slice.of(8, 3);

    private ProgressToken[] tokens;
    private String[] encoded;
    private int next;

    @Setup
    public void generate() {
        tokens = new ProgressToken[POOL];
        encoded = new String[POOL];
        for (int i = 0; i < POOL; i++) {
            tokens[i] = ProgressToken.of(DISTRIBUTION_BITS, SLICE, BucketSpace.DEFAULT, DocumentKey.of(Corpus.id(i)));
            encoded[i] = tokens[i].encoded();
        }
    }

    private int next() {
        next = (next + 1) & (POOL - 1);
        return next;
    }

    /** A position to its URL-safe base64 string. */
    @Benchmark
    public String encode() {
        return tokens[next()].encoded();
    }

    /** A client's token string back to a position, checked against the visit it resumes. */
    @Benchmark
    public ProgressToken parseAndCheck() {
        ProgressToken token = ProgressToken.parse(encoded[next()]);
        token.checkUsableFor(SLICE, BucketSpace.DEFAULT, DISTRIBUTION_BITS);
        return token;
    }

}
