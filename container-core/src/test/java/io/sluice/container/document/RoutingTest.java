package io.sluice.container.document;

import io.sluice.container.JsonTree;
import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Route table, methods, OPTIONS and the visit seam, through the handler on an in-memory connector. */
class RoutingTest {

    private HandlerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = HandlerFixture.create();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void unknownPath_returns404ListingPaths() throws Exception {
        HttpTester.Response response = fixture.send("GET", "/document/v1/ns/music/nope/x");
        assertEquals(404, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/ns/music/nope/x",
                            "message", "Nothing at '/document/v1/ns/music/nope/x'. Available paths are:\n"
                                       + "/document/v1/\n"
                                       + "/document/v1/{namespace}/{documentType}/docid/\n"
                                       + "/document/v1/{namespace}/{documentType}/group/{group}/\n"
                                       + "/document/v1/{namespace}/{documentType}/number/{number}/\n"
                                       + "/document/v1/{namespace}/{documentType}/docid/{*}\n"
                                       + "/document/v1/{namespace}/{documentType}/group/{group}/{*}\n"
                                       + "/document/v1/{namespace}/{documentType}/number/{number}/{*}"),
                     JsonTree.parse(response.getContent()));
    }

    @Test
    void patch_returns405WithAllowedMethods() throws Exception {
        HttpTester.Response response = fixture.send("PATCH", "/document/v1/ns/music/docid/a");
        assertEquals(405, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/ns/music/docid/a",
                            "message", "'PATCH' not allowed at '/document/v1/ns/music/docid/a'. Allowed methods are: GET, POST, PUT, DELETE"),
                     JsonTree.parse(response.getContent()));
    }

    @Test
    void putAtRoot_returns405WithoutPut() throws Exception {
        HttpTester.Response response = fixture.send("PUT", "/document/v1/");
        assertEquals(405, response.getStatus());
        assertEquals("'PUT' not allowed at '/document/v1/'. Allowed methods are: GET, POST, DELETE",
                     JsonTree.object(response.getContent()).get("message"));
    }

    @Test
    void head_returns405() throws Exception {
        String raw = fixture.connector().getResponse("HEAD /document/v1/ns/music/docid/a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertEquals("HTTP/1.1 405 Method Not Allowed", raw.lines().findFirst().orElseThrow());
    }

    @Test
    void encodedSlashAndPlus_decodedInIdSegment() throws Exception {
        HttpTester.Response response = fixture.send("POST", "/document/v1/ns/music/docid/a%2Fb+c?dryRun=true");
        assertEquals(200, response.getStatus());
        assertEquals(Map.of("pathId", "/document/v1/ns/music/docid/a%2Fb+c", "id", "id:ns:music::a/b c"),
                     JsonTree.parse(response.getContent()));
    }

    @Test
    void unencodedSlashes_joinIntoId() throws Exception {
        HttpTester.Response response = fixture.send("POST", "/document/v1/ns/music/docid/one/two/three?dryRun=true");
        assertEquals("id:ns:music::one/two/three", JsonTree.object(response.getContent()).get("id"));
    }

    @Test
    void groupAndNumberPaths_buildIds() throws Exception {
        assertEquals("id:ns:music:g=my group:a",
                     JsonTree.object(fixture.send("POST", "/document/v1/ns/music/group/my%20group/a?dryRun=true").getContent()).get("id"));
        assertEquals("id:ns:music:n=5:a",
                     JsonTree.object(fixture.send("POST", "/document/v1/ns/music/number/5/a?dryRun=true").getContent()).get("id"));
    }

    @Test
    void options_returns204WithAllow() throws Exception {
        HttpTester.Response response = fixture.send("OPTIONS", "/document/v1/ns/music/docid/a");
        assertEquals(204, response.getStatus());
        assertEquals("GET,POST,PUT,DELETE", response.get("Allow"));
        assertEquals("", response.getContent());
    }

    @Test
    void optionsAtRoot_allowsNoPut() throws Exception {
        HttpTester.Response response = fixture.send("OPTIONS", "/document/v1");
        assertEquals(204, response.getStatus());
        assertEquals("GET,POST,DELETE", response.get("Allow"));
    }

    @Test
    void emptySegment_returns400() throws Exception {
        HttpTester.Response response = fixture.send("GET", "/document/v1/ns//docid/a");
        assertEquals(400, response.getStatus());
        assertEquals("path segments cannot be \"\", \".\", or \"..\"", JsonTree.object(response.getContent()).get("message"));
    }

    @Test
    void badNumber_returns400() throws Exception {
        HttpTester.Response response = fixture.send("GET", "/document/v1/ns/music/number/x/a");
        assertEquals(400, response.getStatus());
        assertEquals("For input string: \"x\"", JsonTree.object(response.getContent()).get("message"));
    }

    @Test
    void selectionRoutes_goToVisitRoutes() throws Exception {
        List<String> calls = new ArrayList<>();
        fixture.close();
        fixture = HandlerFixture.withVisitRoutes(context -> new VisitRoutes() {
            @Override public void visit(DocumentRequest request) { answer("visit", request); }
            @Override public void copy(DocumentRequest request) { answer("copy", request); }
            @Override public void updateWhere(DocumentRequest request) { answer("updateWhere", request); }
            @Override public void deleteWhere(DocumentRequest request) { answer("deleteWhere", request); }
            private void answer(String operation, DocumentRequest request) {
                calls.add(operation + " " + request.path().route() + " " + request.path().group().orElse("")
                          + request.path().number().stream().mapToObj(Long::toUnsignedString).findFirst().orElse(""));
                request.respond(DocumentResponses.error(request.pathId(), 200, operation));
            }
        });
        assertEquals(200, fixture.send("GET", "/document/v1/").getStatus());
        assertEquals(200, fixture.send("POST", "/document/v1/ns/music/docid").getStatus());
        assertEquals(200, fixture.send("PUT", "/document/v1/ns/music/group/g1/").getStatus());
        assertEquals(200, fixture.send("DELETE", "/document/v1/ns/music/number/18446744073709551615").getStatus());
        assertEquals(List.of("visit ROOT ", "copy DOCID_SELECTION ", "updateWhere GROUP_SELECTION g1",
                             "deleteWhere NUMBER_SELECTION 18446744073709551615"), calls);
    }

    @Test
    void dryRunOnVisit_returns400() throws Exception {
        HttpTester.Response response = fixture.send("GET", "/document/v1/ns/music/docid/?dryRun=true");
        assertEquals(400, response.getStatus());
        assertEquals("May not specify 'dryRun' at '/document/v1/ns/music/docid/'", JsonTree.object(response.getContent()).get("message"));
    }

}
