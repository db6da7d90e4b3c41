package io.sluice.container.document;

import io.sluice.container.Metric;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.StringValue;
import io.sluice.content.ContentStatistics;
import io.sluice.content.OperationOptions;
import io.sluice.content.memory.InMemoryContentBackend;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each content cluster's store figures as {@code content.*} gauges with a {@code clusterId} dimension. */
class ContentClusterMetricsTest {

    private static ContentClusters.Cluster cluster(String id, io.sluice.content.ContentBackend backend) {
        return new ContentClusters.Cluster(id, backend, List.of("music"), List.of());
    }

    private static Metric gauge(String name, String cluster, Number value) {
        var values = new LinkedHashMap<String, Number>();
        for (String statistic : List.of("average", "sum", "count", "last", "max", "min"))
            values.put(statistic, statistic.equals("count") ? 1 : value);
        return new Metric(name, Map.of("clusterId", cluster), values);
    }

    @Test
    void metrics_reportEveryFigureOfEachClusterUnderItsId() throws Exception {
        try (var music = InMemoryContentBackend.builder().build();
             var empty = InMemoryContentBackend.builder().build()) {
            Document song = Document.builder(HandlerFixture.types().get("music"), DocumentId.of("id:ns:music::a"))
                                    .set("title", new StringValue("Hey Jude")).build();
            music.put(song, OperationOptions.until(Instant.now().plusSeconds(60))).get(10, TimeUnit.SECONDS);
            long bytes = music.statistics().get(ContentStatistics.STORED_BYTES).longValue();
            var metrics = new ContentClusterMetrics(ContentClusters.of(HandlerFixture.types(),
                                                                       List.of(cluster("music", music),
                                                                               cluster("empty", empty))));

            assertEquals(List.of(gauge("content.documents", "music", 1L),
                                 gauge("content.stored_bytes", "music", bytes),
                                 gauge("content.pending_operations", "music", 0),
                                 gauge("content.documents", "empty", 0L),
                                 gauge("content.stored_bytes", "empty", 0L),
                                 gauge("content.pending_operations", "empty", 0)),
                         metrics.metrics());
        }
    }

    @Test
    void metrics_backendWithoutFigures_addsNothing() {
        var metrics = new ContentClusterMetrics(ContentClusters.of(HandlerFixture.types(),
                                                                   List.of(cluster("held", new HeldBackend()))));

        assertEquals(List.of(), metrics.metrics());
    }

    @Test
    void metrics_closedBackend_addsNothing() {
        var backend = InMemoryContentBackend.builder().build();
        backend.close();
        var metrics = new ContentClusterMetrics(ContentClusters.of(HandlerFixture.types(),
                                                                   List.of(cluster("music", backend))));

        assertEquals(List.of(), metrics.metrics());
    }

    @Test
    void handlerMetrics_includeDocumentsStoredThroughIt() throws Exception {
        try (HandlerFixture fixture = HandlerFixture.create()) {
            assertEquals(200, fixture.send("POST", "/document/v1/ns/music/docid/a", "{\"fields\":{\"title\":\"Hey\"}}").getStatus());

            List<Metric> metrics = fixture.handler.metrics().metrics();

            assertTrue(metrics.contains(gauge("content.documents", "music", 1L)), metrics.toString());
        }
    }

}
