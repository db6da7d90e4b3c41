package io.sluice.bench;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.json.DocumentJsonWriter;
import io.sluice.document.json.DocumentUpdateJsonReader;
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
 * The document JSON codec on 1 KiB and 10 KiB documents: reading a put body into a {@link Document}, writing a
 * document back as visit/get JSON, reading an update body, and applying the read update. Each invocation works on
 * the next of {@link #POOL} different documents, so no single input is learned by the branch predictor or cached.
 *
 * <pre>java -jar jmh-benchmarks/target/benchmarks.jar DocumentJsonBenchmark</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class DocumentJsonBenchmark {

    static final int POOL = 64;

    /** Size in bytes of each put body and each update body. */
    @Param({ "1024", "10240" })
    public int bytes;

    private final DocumentJsonReader reader = DocumentJsonReader.strict(Corpus.TYPES);
    private final DocumentUpdateJsonReader updateReader = DocumentUpdateJsonReader.strict(Corpus.TYPES);
    private final DocumentJsonWriter writer = DocumentJsonWriter.create();
    private DocumentId[] ids;
    private byte[][] putBodies;
    private byte[][] updateBodies;
    private Document[] documents;
    private DocumentUpdate[] updates;
    private int next;

    @Setup
    public void generate() {
        ids = new DocumentId[POOL];
        putBodies = new byte[POOL][];
        updateBodies = new byte[POOL][];
        documents = new Document[POOL];
        updates = new DocumentUpdate[POOL];
        for (int i = 0; i < POOL; i++) {
            ids[i] = Corpus.id(i);
            putBodies[i] = Corpus.putBody(i, bytes);
            updateBodies[i] = Corpus.updateBody(i, bytes);
            documents[i] = reader.readPut(ids[i], putBodies[i]).document();
            updates[i] = updateReader.readUpdate(ids[i], updateBodies[i]).update();
        }
    }

    private int next() {
        next = (next + 1) & (POOL - 1);
        return next;
    }

    /** Put body bytes to a document, as the handler does for POST. */
    @Benchmark
    public Document readPut() {
        int i = next();
        return reader.readPut(ids[i], putBodies[i]).document();
    }

    /** A document to {@code {"id":…,"fields":{…}}} bytes, as for GET and each visited document. */
    @Benchmark
    public byte[] writeDocument() {
        return writer.toJson(documents[next()]);
    }

    /** Update body bytes to a document update, as the handler does for PUT. */
    @Benchmark
    public DocumentUpdate readUpdate() {
        int i = next();
        return updateReader.readUpdate(ids[i], updateBodies[i]).update();
    }

    /** Applies a read update (assign, increment, add, assign) to the stored document, as a backend does. */
    @Benchmark
    public Document applyUpdate() {
        int i = next();
        return updates[i].applyTo(documents[i]);
    }

}
