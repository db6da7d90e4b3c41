package io.sluice.container.document;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentUpdate;
import io.sluice.content.ContentBackend;
import io.sluice.document.FieldSet;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Visit;
import io.sluice.content.VisitSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A backend (shared through the test jar) that records every call and answers only when the test completes the call's future. */
public final class HeldBackend implements ContentBackend {

    /** One call: what it was, on which id, with which options, and the future the test completes. */
    public record Call(String operation, DocumentId id, OperationOptions options, Object argument, CompletableFuture<Outcome> result) { }

    private final LinkedBlockingQueue<Call> calls = new LinkedBlockingQueue<>();
    private final List<Call> all = new ArrayList<>();

    private CompletableFuture<Outcome> record(String operation, DocumentId id, OperationOptions options, Object argument) {
        Call call = new Call(operation, id, options, argument, new CompletableFuture<>());
        synchronized (all) {
            all.add(call);
        }
        calls.add(call);
        return call.result();
    }

    /** The next call, waiting up to 10 s for it (the handler issues calls from other threads). */
    public Call next() throws InterruptedException {
        Call call = calls.poll(10, TimeUnit.SECONDS);
        if (call == null)
            throw new AssertionError("No backend call within 10 s");
        return call;
    }

    /**
     * Waits up to 10 s until {@code admission} holds {@code expected} permits. The handler attaches its completion to a
     * call's future after the call has reached this backend, so a test that completes the future at once may run the
     * completion on the handler's thread, a moment after {@code complete} returns.
     */
    public static void awaitPending(Admission admission, int expected) throws InterruptedException {
        for (int i = 0; i < 10_000 && admission.pending() != expected; i++)
            Thread.sleep(1);
        if (admission.pending() != expected)
            throw new AssertionError("Expected " + expected + " admitted operations, but " + admission.pending() + " remain");
    }

    /** Calls made and not yet taken with {@link #next}. */
    public int waiting() {
        return calls.size();
    }

    @Override
    public CompletableFuture<Outcome> put(Document document, OperationOptions options) {
        return record("put", document.id(), options, document);
    }

    @Override
    public CompletableFuture<Outcome> get(DocumentId id, FieldSet fields, OperationOptions options) {
        return record("get", id, options, fields);
    }

    @Override
    public CompletableFuture<Outcome> update(DocumentUpdate update, OperationOptions options) {
        return record("update", update.id(), options, update);
    }

    @Override
    public CompletableFuture<Outcome> remove(DocumentId id, OperationOptions options) {
        return record("remove", id, options, null);
    }

    @Override
    public Visit visit(VisitSpec spec) {
        throw new UnsupportedOperationException("visit");
    }

    @Override
    public void close() { }

}
