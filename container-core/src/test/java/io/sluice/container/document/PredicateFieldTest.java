package io.sluice.container.document;

import io.sluice.container.JsonTree;
import org.eclipse.jetty.http.HttpTester;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Predicate fields over the in-memory backend: bad text is a 400 that writes nothing; good text is kept canonical. */
class PredicateFieldTest {

    private static final String DOC = "/document/v1/ns/music/docid/one";
    private static final String CANONICAL = "gender in [Female, Male] and (age in [..20] or 'region_id' not in [7])";

    private HandlerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = HandlerFixture.create();
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private static Map<String, Object> json(HttpTester.Response response) {
        return JsonTree.object(response.getContent());
    }

    private static String put(String predicate) {
        return "{\"fields\":{\"artist\":\"Tom Waits\",\"audience\":\"" + predicate + "\"}}";
    }

    @SuppressWarnings("unchecked")
    private Object storedAudience() throws Exception {
        HttpTester.Response response = fixture.send("GET", DOC);
        assertEquals(200, response.getStatus(), response.getContent());
        return ((Map<String, Object>) json(response).get("fields")).get("audience");
    }

    @Test
    void put_invalidPredicate_returns400NamingFieldAndProblem_andWritesNothing() throws Exception {
        HttpTester.Response response = fixture.send("POST", DOC, put("gender in [Female"));
        assertEquals(400, response.getStatus());
        assertEquals("In document 'id:ns:music::one': Could not parse field 'audience' of type predicate: "
                     + "Invalid predicate 'gender in [Female': Expected ',' or ']' at column 18, got end of input",
                     json(response).get("message"));
        assertEquals(404, fixture.send("GET", DOC).getStatus());
    }

    @Test
    void put_predicate_isReturnedInCanonicalForm_byEveryGet() throws Exception {
        HttpTester.Response response = fixture.send("POST", DOC,
                put("(gender IN [Male,Female,Male]) AND (age in [..20] OR region_id NOT IN [7])"));
        assertEquals(200, response.getStatus(), response.getContent());
        assertEquals(CANONICAL, storedAudience());
        assertEquals(CANONICAL, storedAudience()); // the second get sends the fields the engine kept as JSON
    }

    @Test
    void updateAssign_invalidPredicate_returns400_andLeavesTheDocument() throws Exception {
        fixture.send("POST", DOC, put("true"));
        HttpTester.Response response = fixture.send("PUT", DOC, "{\"fields\":{\"audience\":{\"assign\":\"age in [30..20]\"}}}");
        assertEquals(400, response.getStatus());
        assertEquals("Error in 'audience': Invalid predicate 'age in [30..20]': "
                     + "Range at column 8 of 'age' ends (20) before it starts (30)",
                     json(response).get("message"));
        assertEquals("true", storedAudience());
    }

    @Test
    void updateAssign_predicate_isKeptInCanonicalForm() throws Exception {
        fixture.send("POST", DOC, put("true"));
        HttpTester.Response response = fixture.send("PUT", DOC, "{\"fields\":{\"audience\":{\"assign\":\"a NOT IN [y,x]\"}}}");
        assertEquals(200, response.getStatus(), response.getContent());
        assertEquals("a not in [x, y]", storedAudience());
    }

    @Test
    void condition_comparesTheCanonicalText() throws Exception {
        fixture.send("POST", DOC, put("a in [y,x]"));
        String update = "{\"fields\":{\"year\":{\"assign\":1}}}";
        String asFed = "?condition=music.audience%3D%3D%22a%20in%20%5By%2Cx%5D%22";
        assertEquals(412, fixture.send("PUT", DOC + asFed, update).getStatus());
        String canonical = "?condition=music.audience%3D%3D%22a%20in%20%5Bx%2C%20y%5D%22";
        HttpTester.Response response = fixture.send("PUT", DOC + canonical, update);
        assertEquals(200, response.getStatus(), response.getContent());
    }
}
