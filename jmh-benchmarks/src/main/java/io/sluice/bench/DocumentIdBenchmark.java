package io.sluice.bench;

import io.sluice.document.BucketId;
import io.sluice.document.DocumentId;
import io.sluice.document.GlobalId;
import io.sluice.document.Slice;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Document ids and what is derived from them on every operation: parsing the id string, its global id (MD5), its
 * bucket id and its slice. The {@link #scheme} picks plain ids ({@code id:bench:article::n}), numbered ids
 * ({@code n=}) or grouped ids ({@code g=}), whose bucket ids are computed differently.
 *
 * <pre>java -jar jmh-benchmarks/target/benchmarks.jar DocumentIdBenchmark</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class DocumentIdBenchmark {

    static final int POOL = 1024;
    static final int DISTRIBUTION_BITS = 8;

    @Param({ "plain", "number", "group" })
    public String scheme;

    private String[] texts;
    private DocumentId[] ids;
    private int next;

    @Setup
    public void generate() {
        texts = new String[POOL];
        ids = new DocumentId[POOL];
        for (int i = 0; i < POOL; i++) {
            texts[i] = idText(scheme, i);
            ids[i] = DocumentId.of(texts[i]);
        }
    }

    static String idText(String scheme, int n) {
        switch (scheme) {
            case "plain": return "id:bench:article::" + Long.toHexString(n * 0x9E3779B97F4A7C15L);
            case "number": return "id:bench:article:n=" + (n * 7919L) + ":" + n;
            case "group": return "id:bench:article:g=group-" + (n % 97) + ":" + n;
            default: throw new IllegalArgumentException("Unknown id scheme '" + scheme + "'");
        }
    }

    private int next() {
        next = (next + 1) & (POOL - 1);
        return next;
    }

    /** Parses and validates an id string, as every /document/v1 request path needs. */
    @Benchmark
    public DocumentId parse() {
        return DocumentId.of(texts[next()]);
    }

    /** The 12-byte global id (MD5 of the id), the stores' key. */
    @Benchmark
    public GlobalId globalId() {
        return GlobalId.of(ids[next()]);
    }

    /** The 58-bit bucket id, which orders visits and places documents. */
    @Benchmark
    public BucketId bucketId() {
        return BucketId.of(ids[next()]);
    }

    /** Which of 8 slices the id belongs to, checked for every visited document of a sliced visit. */
    @Benchmark
    public int slice() {
        return Slice.indexOf(ids[next()], 8, DISTRIBUTION_BITS);
    }

}
