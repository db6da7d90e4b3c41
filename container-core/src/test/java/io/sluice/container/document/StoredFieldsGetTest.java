package io.sluice.container.document;

import io.sluice.config.DocumentApiConfig;
import io.sluice.container.JsonTree;
import io.sluice.content.Outcome;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.json.FieldsJson;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.LocalConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A get whose backend holds the document's fields as JSON answers with those bytes, and decodes only when it must. */
class StoredFieldsGetTest {

    private static final String DOC = "/document/v1/ns/music/docid/one";
    private static final DocumentId ID = DocumentId.of("id:ns:music::one");
    /** Bytes the handler cannot have made itself: a stored form in an order and spacing its writer never uses. */
    private static final String STORED = "{\"year\":1983,\"artist\":\"Tom Waits\"}";

    private final HeldBackend backend = new HeldBackend();
    private final AtomicInteger decoded = new AtomicInteger();
    private HandlerFixture fixture;

    @BeforeEach
    void start() throws Exception {
        fixture = HandlerFixture.create(backend, DocumentApiConfig.defaults());
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private Outcome storedOutcome() {
        byte[] value = ("xx{\"fields\":" + STORED + "}").getBytes(StandardCharsets.UTF_8);
        Supplier<Document> decoder = () -> {
            decoded.incrementAndGet();
            return DocumentJsonReader.strict(HandlerFixture.types()).readPut(ID, value, 2, value.length - 2).document();
        };
        return Outcome.found(new FieldsJson(value, 2 + "{\"fields\":".length(), STORED.length()), decoder, 17);
    }

    private HttpTester.Response get(String query) throws Exception {
        LocalConnector.LocalEndPoint request = fixture.start("GET", DOC + query, null);
        backend.next().result().complete(storedOutcome());
        return HttpTester.parseResponse(request.getResponse());
    }

    @Test
    void get_storedFields_areSentAsTheyAre_withoutDecoding() throws Exception {
        HttpTester.Response response = get("");
        assertEquals(200, response.getStatus());
        assertEquals("{\"pathId\":\"" + DOC + "\",\"id\":\"id:ns:music::one\",\"fields\":" + STORED + "}", response.getContent());
        assertEquals(0, decoded.get());
    }

    @Test
    void get_storedFieldsWithTrace_keepTheTraceBeforeTheFields() throws Exception {
        HttpTester.Response response = get("?tracelevel=1");
        assertEquals(200, response.getStatus());
        assertTrue(response.getContent().endsWith(",\"fields\":" + STORED + "}"), response.getContent());
        assertTrue(JsonTree.object(response.getContent()).get("trace") instanceof List, response.getContent());
        assertEquals(0, decoded.get());
    }

    @Test
    void get_otherTensorFormat_decodesAndWritesTheDocument() throws Exception {
        HttpTester.Response response = get("?format.tensors=long");
        assertEquals(200, response.getStatus());
        // the writer's own field order, not the stored bytes
        assertEquals("{\"pathId\":\"" + DOC + "\",\"id\":\"id:ns:music::one\",\"fields\":{\"artist\":\"Tom Waits\",\"year\":1983}}",
                     response.getContent());
        assertEquals(1, decoded.get());
    }

}
