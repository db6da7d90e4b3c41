package io.sluice.container.document;

import io.sluice.content.Outcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Writes of a type two content clusters store (music and archive both store music): Vespa's default route. */
class WriteRoutingTest {

    private static final String DOC = "/document/v1/ns/music/docid/a";
    private static final String ID = "id:ns:music::a";

    private VisitFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = VisitFixture.create();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void defaultRoute_writesToEveryClusterStoringTheType() throws Exception {
        assertEquals(200, fixture.send("POST", DOC, "{\"fields\":{\"year\":1}}").getStatus());
        assertTrue(fixture.get(fixture.music, ID).isPresent());
        assertTrue(fixture.get(fixture.archive, ID).isPresent());
        assertEquals(200, fixture.send("PUT", DOC, "{\"fields\":{\"year\":{\"assign\":2}}}").getStatus());
        assertEquals("2", fixture.get(fixture.archive, ID).orElseThrow().value("year").orElseThrow().toString());
        assertEquals(200, fixture.send("DELETE", DOC, null).getStatus());
        assertTrue(fixture.get(fixture.music, ID).isEmpty());
        assertTrue(fixture.get(fixture.archive, ID).isEmpty());
    }

    @Test
    void namedCluster_writesThereOnly() throws Exception {
        assertEquals(200, fixture.send("POST", DOC + "?cluster=archive", "{\"fields\":{\"year\":1}}").getStatus());
        assertTrue(fixture.get(fixture.music, ID).isEmpty());
        assertTrue(fixture.get(fixture.archive, ID).isPresent());
        assertEquals(200, fixture.send("POST", DOC + "?route=music", "{\"fields\":{\"year\":1}}").getStatus());
        assertTrue(fixture.get(fixture.music, ID).isPresent());
    }

    @Test
    void conditionFailingInOneCluster_is412() throws Exception {
        fixture.put(fixture.music, ID, "{\"year\":1}");
        fixture.put(fixture.archive, ID, "{\"year\":2}");
        assertEquals(412, fixture.send("PUT", DOC + "?condition=music.year%3D%3D1", "{\"fields\":{\"year\":{\"assign\":3}}}").getStatus());
    }

    @Test
    void merged_failureBeatsConditionBeatsFoundBeatsMissing() {
        Outcome missing = Outcome.missing(), found = Outcome.written(5, true), condition = Outcome.conditionFailed("no"),
                failed = Outcome.insufficientStorage("full");
        assertSame(failed, SingleDocumentOperations.merged(List.of(missing, condition, failed, found)));
        assertSame(condition, SingleDocumentOperations.merged(List.of(found, condition)));
        assertSame(found, SingleDocumentOperations.merged(List.of(missing, found)));
        assertSame(missing, SingleDocumentOperations.merged(List.of(missing, Outcome.missing())));
    }

}
