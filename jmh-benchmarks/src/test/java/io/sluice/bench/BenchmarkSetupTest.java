package io.sluice.bench;

import io.sluice.document.BucketId;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.Slice;
import io.sluice.content.BucketSpace;
import io.sluice.content.DocumentKey;
import io.sluice.content.ProgressToken;
import io.sluice.document.select.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.annotations.Param;

import java.util.EnumMap;
import java.util.Map;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each benchmark's setup runs and its methods compute what they claim to, so a broken benchmark fails the build
 * rather than reporting a fast no-op. No timing here: numbers come from JMH only.
 */
class BenchmarkSetupTest {

    @ParameterizedTest
    @ValueSource(ints = { 1024, 10240 })
    void documentJson_writeThenReadGivesTheSameDocument(int bytes) {
        DocumentJsonBenchmark benchmark = new DocumentJsonBenchmark();
        benchmark.bytes = bytes;
        benchmark.generate();
        Document read = benchmark.readPut();
        byte[] written = benchmark.writeDocument();
        assertEquals(Corpus.id(1), read.id());
        String expected = new String(Corpus.putBody(2, bytes), UTF_8).replace("{\"fields\"", "{\"id\":\"" + Corpus.id(2) + "\",\"fields\"");
        assertEquals(expected, new String(written, UTF_8));
    }

    @Test
    void documentJson_updatesChangeTheDocument() {
        DocumentJsonBenchmark benchmark = new DocumentJsonBenchmark();
        benchmark.bytes = 1024;
        benchmark.generate();
        assertEquals(4, benchmark.readUpdate().fieldUpdates().size());
        assertEquals("Updated article 2", benchmark.applyUpdate().value("title").orElseThrow().toString());
    }

    @ParameterizedTest
    @ValueSource(strings = { "plain", "number", "group" })
    void documentId_derivedValuesMatchTheParsedId(String scheme) {
        DocumentIdBenchmark benchmark = new DocumentIdBenchmark();
        benchmark.scheme = scheme;
        benchmark.generate();
        // Each call works on the next id of the pool: 1, 2, 3, 4.
        assertEquals(DocumentIdBenchmark.idText(scheme, 1), benchmark.parse().toString());
        assertEquals(id(scheme, 2).globalId(), benchmark.globalId());
        assertEquals(BucketId.of(id(scheme, 3)), benchmark.bucketId());
        assertEquals(Slice.indexOf(id(scheme, 4), 8, DocumentIdBenchmark.DISTRIBUTION_BITS), benchmark.slice());
    }

    private static DocumentId id(String scheme, int n) {
        return DocumentId.of(DocumentIdBenchmark.idText(scheme, n));
    }

    @Test
    void selection_everySelectionParsesAndMatchesSomeButNotAllDocuments() throws Exception {
        String[] selections = SelectionBenchmark.class.getField("selection")
                                                      .getAnnotation(Param.class).value();
        for (String selection : selections) {
            SelectionBenchmark benchmark = new SelectionBenchmark();
            benchmark.selection = selection;
            benchmark.generate();
            assertEquals(selection, benchmark.parse().toString());
            Map<Result, Integer> results = new EnumMap<>(Result.class);
            for (int i = 0; i < SelectionBenchmark.POOL; i++) results.merge(benchmark.evaluate(), 1, Integer::sum);
            assertTrue(results.getOrDefault(Result.TRUE, 0) > 0 && results.getOrDefault(Result.FALSE, 0) > 0,
                       selection + " gave " + results);
        }
    }

    @Test
    void continuationToken_parsesBackToTheEncodedPosition() {
        ContinuationTokenBenchmark benchmark = new ContinuationTokenBenchmark();
        benchmark.generate();
        ProgressToken second = ProgressToken.of(ContinuationTokenBenchmark.DISTRIBUTION_BITS, ContinuationTokenBenchmark.SLICE,
                                                BucketSpace.DEFAULT, DocumentKey.of(Corpus.id(2)));
        assertEquals(ProgressToken.of(ContinuationTokenBenchmark.DISTRIBUTION_BITS, ContinuationTokenBenchmark.SLICE,
                                      BucketSpace.DEFAULT, DocumentKey.of(Corpus.id(1))).encoded(), benchmark.encode());
        assertEquals(second, benchmark.parseAndCheck());
    }

}
