package io.sluice.feed;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

class VisitClientTest {

    /** Collects documents as text and tokens, as delivered. */
    private static final class Collected implements VisitSink {
        final List<String> documents = new ArrayList<>();
        final List<Optional<String>> tokens = new ArrayList<>();
        @Override public void document(byte[] json, int offset, int length) {
            documents.add(new String(json, offset, length, StandardCharsets.UTF_8));
        }
        @Override public void continuation(Optional<String> token, double percentFinished) { tokens.add(token); }
    }

    private static StubServer.Reply jsonl(String... lines) {
        return new StubServer.Reply(200, String.join("\n", lines) + "\n", "application/jsonl; charset=UTF-8");
    }

    private static VisitClient client(StubServer server) {
        return FeedClientBuilder.create(server.uri()).setConnectionsPerEndpoint(1).buildVisitClient();
    }

    @Test
    void visit_doesNotAskForCompressedResponses() throws IOException {
        List<StubServer.Received> requests = new CopyOnWriteArrayList<>();
        try (StubServer server = new StubServer(r -> {
                 requests.add(r);
                 return jsonl("{\"put\":\"id:ns:music::a\",\"fields\":{}}", "{\"continuation\":{\"percentFinished\":100.0}}");
             });
             VisitClient client = client(server)) {
            client.visit(VisitParameters.of("music"), 0, Optional.empty(), new Collected());
        }
        assertEquals(1, requests.size());
        assertEquals(null, requests.get(0).acceptEncoding());
    }

}
