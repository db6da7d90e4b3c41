package io.sluice.bench;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** The handler benchmark's states start, and its requests get 200s with the expected bodies (no timing here). */
class DocumentV1ApiHandlerBenchmarkTest {

    @Test
    void put_isStoredByTheHandler() throws Exception {
        DocumentV1ApiHandlerBenchmark.Empty state = new DocumentV1ApiHandlerBenchmark.Empty();
        state.start();
        try {
            String response = text(state.send(state.nextPut()));
            assertTrue(response.contains("\"id\":\"id:bench:article::p-1\""), response);
        } finally {
            state.stop();
        }
    }

    @Test
    void get_returnsAStoredDocument() throws Exception {
        DocumentV1ApiHandlerBenchmark.Stored state = new DocumentV1ApiHandlerBenchmark.Stored();
        state.start();
        try {
            String response = text(state.send(state.nextGet()));
            assertTrue(response.contains("\"id\":\"id:bench:article::1\",\"fields\":{\"title\":\"Article 1 on "), response);
        } finally {
            state.stop();
        }
    }

    @Test
    void visitPage_returnsEveryStoredDocumentInOneResponse() throws Exception {
        DocumentV1ApiHandlerBenchmark.Visited state = new DocumentV1ApiHandlerBenchmark.Visited();
        state.start(); // checks the page's document count and that no continuation follows
        try {
            String response = text(state.send(state.visit));
            assertTrue(response.contains("\"documentCount\":" + DocumentV1ApiHandlerBenchmark.STORED), response.substring(0, 300));
        } finally {
            state.stop();
        }
    }

    @Test
    void reference_answersTheFixedBody() throws Exception {
        DocumentV1ApiHandlerBenchmark.Fixed state = new DocumentV1ApiHandlerBenchmark.Fixed();
        state.start();
        try {
            String response = text(state.send(state.request));
            assertTrue(response.endsWith(new String(DocumentV1ApiHandlerBenchmark.Fixed.BODY, StandardCharsets.UTF_8)), response);
        } finally {
            state.stop();
        }
    }

    private static String text(ByteBuffer response) {
        return StandardCharsets.UTF_8.decode(response).toString();
    }

}
