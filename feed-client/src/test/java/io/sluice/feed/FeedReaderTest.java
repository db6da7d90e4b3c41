package io.sluice.feed;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FeedReaderTest {

    private static List<FeedOperation> readAll(InputStream in) {
        List<FeedOperation> operations = new ArrayList<>();
        FeedReader reader = FeedReader.of(in);
        for (Optional<FeedOperation> op; (op = reader.next()).isPresent(); ) operations.add(op.get());
        return operations;
    }

    private static List<FeedOperation> readAll(String json) {
        return readAll(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static String body(FeedOperation operation) { return new String(operation.body(), StandardCharsets.UTF_8); }

    @Test
    void jsonl_fieldsAreSlicedVerbatim() {
        List<FeedOperation> ops = readAll("{\"put\": \"id:ns:t::a\", \"fields\": {\"x\" : [1, 2.50, \"é\"]}}\n" +
                                          "{\"remove\":\"id:ns:t::b\"}\n");
        assertEquals(2, ops.size());
        assertEquals(OperationType.PUT, ops.get(0).type());
        assertEquals("{\"fields\":{\"x\" : [1, 2.50, \"é\"]}}", body(ops.get(0)));
        assertEquals(OperationType.REMOVE, ops.get(1).type());
        assertEquals(0, ops.get(1).body().length);
    }

    @Test
    void array_withConditionCreateAndIdAlias() {
        List<FeedOperation> ops = readAll("[{\"id\":\"id:ns:t::a\",\"fields\":{}},\n" +
                                          " {\"update\":\"id:ns:t::a\",\"create\":true,\"condition\":\"t.x==1\",\"fields\":{\"x\":{\"assign\":2}}}]");
        assertEquals(OperationType.PUT, ops.get(0).type());
        assertEquals(OperationType.UPDATE, ops.get(1).type());
        assertTrue(ops.get(1).create());
        assertEquals(Optional.of("t.x==1"), ops.get(1).condition());
        assertEquals("{\"fields\":{\"x\":{\"assign\":2}}}", body(ops.get(1)));
    }

    @Test
    void unknownField_namesOffsetLineAndColumn() {
        OperationParseException e = assertThrows(OperationParseException.class,
                () -> readAll("{\"put\":\"id:ns:t::a\",\"fields\":{}}\n{\"put\":\"id:ns:t::b\", \"fieldz\":{}}"));
        assertEquals("Unexpected field name 'fieldz' at offset 55 (line 2, column 22)", e.getMessage());
    }

    @Test
    void malformedJson_isOperationParseException() {
        OperationParseException e = assertThrows(OperationParseException.class, () -> readAll("{\"put\":\"id:ns:t::a\",,}"));
        assertTrue(e.getMessage().contains("line 1"), e.getMessage());
    }

    @Test
    void putWithoutFields_isRejected() {
        OperationParseException e = assertThrows(OperationParseException.class, () -> readAll("{\"put\":\"id:ns:t::a\"}"));
        assertTrue(e.getMessage().startsWith("Missing 'fields' in put of 'id:ns:t::a'"), e.getMessage());
    }

    @Test
    void badDocumentId_isRejected() {
        OperationParseException e = assertThrows(OperationParseException.class, () -> readAll("{\"remove\":\"doc:x\"}"));
        assertTrue(e.getMessage().contains("'doc:x'"), e.getMessage());
    }

    @Test
    void inputLargerThanBuffers_streamsThroughSmallReads() {
        StringBuilder feed = new StringBuilder();
        String big = "x".repeat(200_000);
        for (int i = 0; i < 50; i++)
            feed.append("{\"put\":\"id:ns:t::").append(i).append("\",\"fields\":{\"f\":\"").append(i % 10 == 0 ? big : "v").append("\"}}\n");
        byte[] bytes = feed.toString().getBytes(StandardCharsets.UTF_8);
        InputStream trickle = new ByteArrayInputStream(bytes) {
            @Override public synchronized int read(byte[] b, int off, int len) { return super.read(b, off, Math.min(len, 777)); }
        };
        List<FeedOperation> ops = readAll(trickle);
        assertEquals(50, ops.size());
        assertTrue(("{\"fields\":{\"f\":\"" + big + "\"}}").equals(body(ops.get(40))), "large operation sliced whole");
        assertEquals("{\"fields\":{\"f\":\"v\"}}", body(ops.get(41)));
        assertEquals("id:ns:t::49", ops.get(49).documentId().toString());
    }

    @Test
    void emptyInput_hasNoOperations() {
        assertEquals(List.of(), readAll(""));
        assertEquals(List.of(), readAll("[]"));
    }

    @Test
    void failureSideField_isSkipped() {
        List<FeedOperation> ops = readAll("{\"put\":\"id:ns:t::a\",\"fields\":{\"x\":1},\"failure\":{\"status\":400,\"message\":\"m\"}}\n");
        assertEquals(1, ops.size());
        assertEquals("{\"fields\":{\"x\":1}}", body(ops.get(0)));
    }

    @Test
    void keepingSource_keepsEachObjectAsRead_evenAcrossSmallReads() {
        String first = "{ \"put\": \"id:ns:t::a\",\n  \"fields\": {\"x\": \"" + "y".repeat(100_000) + "\"} }";
        String second = "{\"remove\":\"id:ns:t::b\"}";
        byte[] bytes = ("[" + first + ",\n" + second + "]").getBytes(StandardCharsets.UTF_8);
        InputStream trickle = new ByteArrayInputStream(bytes) {
            @Override public synchronized int read(byte[] b, int off, int len) { return super.read(b, off, Math.min(len, 777)); }
        };
        FeedReader reader = FeedReader.of(trickle).keepingSource();
        assertEquals(first, new String(reader.next().get().source(), StandardCharsets.UTF_8));
        assertEquals(second, new String(reader.next().get().source(), StandardCharsets.UTF_8));
    }

    @Test
    void withoutKeepingSource_sourceIsEmpty() {
        assertEquals(0, readAll("{\"remove\":\"id:ns:t::b\"}").get(0).source().length);
    }

    @Test
    void end_isOffsetLineAndColumnJustAfterTheObject() {
        List<FeedOperation> ops = readAll("{\"remove\":\"id:ns:t::a\"}\n{\"remove\":\"id:ns:t::b\"}\n");
        assertEquals(new FeedReader.Position(23, 1, 24), ops.get(0).end());
        assertEquals(new FeedReader.Position(47, 2, 24), ops.get(1).end());
    }

    @Test
    void resumed_countsOffsetsAndLinesFromTheWholeInput() {
        String whole = "{\"remove\":\"id:ns:t::a\"}\n{\"remove\":\"id:ns:t::b\"}\n{\"put\":\"id:ns:t::c\",\"fieldz\":{}}\n";
        FeedReader full = FeedReader.of(new ByteArrayInputStream(whole.getBytes(StandardCharsets.UTF_8)));
        FeedReader.Position afterFirst = full.next().get().end();
        FeedOperation second = full.next().get();
        OperationParseException expected = assertThrows(OperationParseException.class, full::next);

        FeedReader reader = FeedReader.resumed(new ByteArrayInputStream(whole.substring((int) afterFirst.offset()).getBytes(StandardCharsets.UTF_8)),
                                               afterFirst);
        FeedOperation op = reader.next().get();
        assertEquals("id:ns:t::b", op.documentId().toString());
        assertEquals(second.end(), op.end());
        OperationParseException e = assertThrows(OperationParseException.class, reader::next);
        assertEquals(expected.getMessage(), e.getMessage());
        assertEquals("Unexpected field name 'fieldz' at offset 69 (line 3, column 21)", e.getMessage());
    }

    @Test
    void resumed_arrayIsRejected() {
        FeedReader reader = FeedReader.resumed(new ByteArrayInputStream("[{\"remove\":\"id:ns:t::b\"}]".getBytes(StandardCharsets.UTF_8)),
                                               new FeedReader.Position(10, 1, 11));
        OperationParseException e = assertThrows(OperationParseException.class, reader::next);
        assertTrue(e.getMessage().startsWith("A JSON array feed cannot be resumed from a checkpoint: use JSONL"), e.getMessage());
    }

}
