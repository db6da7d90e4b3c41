package io.sluice.container.document;

import io.sluice.content.Outcome;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Applies one operation to every visited document: an update or remove for update-where and delete-where (spec §6.6),
 * a put into another cluster for copy (§6.7). At most {@value #MAX_IN_FLIGHT} operations run at once: a batch's
 * operations are all issued, and the next batch is pulled when they have all completed. Outcomes SUCCESS, NOT_FOUND
 * and CONDITION_FAILED are fine (the document changed meanwhile); any other ends the page with its message.
 */
final class WhereOperations implements PageDriver.Sink {

    /** The most operations issued at once, and the size of the batches pulled. */
    static final int MAX_IN_FLIGHT = 64;

    private final Function<VisitEntry, CompletableFuture<Outcome>> operation;
    private final AtomicInteger count = new AtomicInteger();

    /** @param operation issues the operation for a visited document; must not block */
    WhereOperations(Function<VisitEntry, CompletableFuture<Outcome>> operation) {
        this.operation = Objects.requireNonNull(operation, "operation");
    }

    @Override
    public int nextBatchSize() {
        return MAX_IN_FLIGHT;
    }

    @Override
    public CompletableFuture<Optional<String>> accept(VisitBatch batch) {
        List<CompletableFuture<Outcome>> outcomes = new ArrayList<>();
        for (VisitEntry entry : batch.entries()) {
            if (entry.isRemove())
                continue;
            count.incrementAndGet();
            CompletableFuture<Outcome> outcome;
            try {
                outcome = operation.apply(entry);
            }
            catch (RuntimeException e) {
                outcome = CompletableFuture.failedFuture(e);
            }
            outcomes.add(outcome);
        }
        return CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new)).handle((ignored, failure) -> {
            for (CompletableFuture<Outcome> outcome : outcomes) {
                if (outcome.isCompletedExceptionally())
                    return Optional.of(PageDriver.message(outcome.handle((value, e) -> e).getNow(null)));
                Outcome result = outcome.getNow(null); // allOf completed: every outcome is done
                if ( ! acceptable(result.status()))
                    return Optional.of(result.message().isEmpty() ? result.status().toString() : result.message());
            }
            return Optional.empty();
        });
    }

    private static boolean acceptable(Outcome.Status status) {
        return status == Outcome.Status.SUCCESS || status == Outcome.Status.NOT_FOUND
               || status == Outcome.Status.CONDITION_FAILED;
    }

    @Override
    public boolean satisfied() {
        return false;
    }

    /** The number of documents received for processing. */
    int documentCount() {
        return count.get();
    }

}
