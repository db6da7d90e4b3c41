package io.sluice.bench;

import io.sluice.document.select.DocumentSelection;
import io.sluice.document.select.DocumentSelectionContext;
import io.sluice.document.select.Result;
import io.sluice.document.select.SelectionContext;
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

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

/**
 * The document selection language: parsing a selection (once per visit or conditional write) and evaluating it
 * against 1 KiB documents (once per visited document, or per test-and-set write). Selections cover field
 * comparisons, glob and regex matching, array fields and id components.
 *
 * <pre>java -jar jmh-benchmarks/target/benchmarks.jar SelectionBenchmark</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class SelectionBenchmark {

    static final int POOL = 256;
    static final int DOCUMENT_BYTES = 1024;
    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);

    @Param({
            "article.year > 2000",
            "article.year > 1990 and article.score < 500.0 and article.title = \"Article 1*\"",
            "article.tags == \"sluice\" or article.body =~ \"river.*gate\"",
            "id.namespace == \"bench\" and id.specific > \"5\"",
    })
    public String selection;

    private DocumentSelection parsed;
    private SelectionContext[] documents;
    private int next;

    @Setup
    public void generate() {
        parsed = DocumentSelection.parse(selection);
        documents = new SelectionContext[POOL];
        for (int i = 0; i < POOL; i++) documents[i] = DocumentSelectionContext.of(Corpus.document(i, DOCUMENT_BYTES));
    }

    /** Parses the selection text into an expression tree. */
    @Benchmark
    public DocumentSelection parse() {
        return DocumentSelection.parse(selection);
    }

    /** Evaluates the parsed selection against the next document. */
    @Benchmark
    public Result evaluate() {
        next = (next + 1) & (POOL - 1);
        return parsed.evaluate(documents[next], CLOCK);
    }

}
