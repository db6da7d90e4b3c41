package io.sluice.container.document;

import io.sluice.container.Metric;
import io.sluice.container.MetricsSource;
import io.sluice.content.BucketSpace;
import io.sluice.content.OperationOptions;
import io.sluice.content.Outcome;
import io.sluice.content.Visit;
import io.sluice.content.VisitBatch;
import io.sluice.content.VisitEntry;
import io.sluice.content.VisitSpec;
import io.sluice.document.FieldSet;
import io.sluice.document.select.DocumentSelection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Vespa's garbage collection: for each content cluster with {@code garbage-collection="true"}, a sweep every
 * {@code garbage-collection-interval} removes the documents its selection does not keep (false or undecidable, e.g.
 * without the field a time-to-live selection compares), so {@code music.timestamp > now() - 86400} expires documents
 * after a day. A sweep visits the cluster, on any engine, and removes each such document with the complement of the
 * selection as the remove's condition: a document written again since it was visited, and kept now, stays. One batch
 * of removes is outstanding at a time, so a sweep adds little load. The first sweep starts one minute after start.
 *
 * <p>Reports {@code content_gc_sweeps}, {@code content_gc_removed}, {@code content_gc_failures} (counters) and
 * {@code content_gc_last_sweep_seconds} (how long the last completed sweep took), per {@code clusterId}.
 */
final class GarbageCollector implements MetricsSource {

    private static final Logger log = LoggerFactory.getLogger(GarbageCollector.class);

    static final Duration FIRST_SWEEP_DELAY = Duration.ofMinutes(1);
    private static final int BATCH_ENTRIES = 256;
    private static final long BATCH_BYTES = 1 << 20;
    private static final Duration REMOVE_TIMEOUT = Duration.ofSeconds(60);

    private record Figures(AtomicLong sweeps, AtomicLong removed, AtomicLong failures, AtomicLong lastSweepMillis) {
        Figures() {
            this(new AtomicLong(), new AtomicLong(), new AtomicLong(), new AtomicLong());
        }
    }

    private final List<ContentClusters.Cluster> clusters;
    private final TaskScheduler scheduler;
    private final Clock clock;
    private final Map<String, Figures> figures = new ConcurrentHashMap<>();
    private final List<Runnable> cancels = new ArrayList<>();
    private final Set<Visit> running = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean stopped = new AtomicBoolean();

    GarbageCollector(ContentClusters clusters, TaskScheduler scheduler, Clock clock) {
        this.clusters = clusters.all().stream().filter(cluster -> cluster.garbageCollectionInterval().isPresent()).toList();
        this.scheduler = scheduler;
        this.clock = clock;
        for (ContentClusters.Cluster cluster : this.clusters)
            figures.put(cluster.id(), new Figures());
    }

    /** Schedules the sweeps of every cluster that collects garbage. */
    synchronized void start() {
        for (ContentClusters.Cluster cluster : clusters)
            schedule(cluster, FIRST_SWEEP_DELAY);
    }

    /** Stops scheduling sweeps and cancels those running; removes already sent may still complete. */
    synchronized void stop() {
        stopped.set(true);
        cancels.forEach(Runnable::run);
        cancels.clear();
        running.forEach(Visit::cancel);
    }

    private synchronized void schedule(ContentClusters.Cluster cluster, Duration delay) {
        if (stopped.get())
            return;
        cancels.add(scheduler.schedule(() -> sweep(cluster).whenComplete((removed, failure) -> {
            if (failure != null)
                log.warn("Garbage collection of content cluster '{}' failed, next sweep in {}: {}", cluster.id(),
                         cluster.garbageCollectionInterval().get(), failure.toString());
            schedule(cluster, cluster.garbageCollectionInterval().get());
        }), delay));
    }

    /** One sweep of {@code cluster}: completes with the number of documents removed. */
    CompletableFuture<Long> sweep(ContentClusters.Cluster cluster) {
        DocumentSelection kept = cluster.selection().orElseThrow();
        Figures counts = figures.computeIfAbsent(cluster.id(), __ -> new Figures());
        long started = clock.millis();
        Set<BucketSpace> spaces = new LinkedHashSet<>();
        for (String type : cluster.types())
            spaces.add(cluster.bucketSpace(type));
        CompletableFuture<Long> removed = CompletableFuture.completedFuture(0L);
        for (BucketSpace space : spaces)
            removed = removed.thenCompose(sum -> sweep(cluster, space, kept).thenApply(n -> sum + n));
        return removed.whenComplete((n, failure) -> {
            if (failure != null) {
                counts.failures.incrementAndGet();
                return;
            }
            counts.sweeps.incrementAndGet();
            counts.lastSweepMillis.set(clock.millis() - started);
            if (n > 0)
                log.info("Garbage collection removed {} documents from content cluster '{}'", n, cluster.id());
        });
    }

    private CompletableFuture<Long> sweep(ContentClusters.Cluster cluster, BucketSpace space, DocumentSelection kept) {
        DocumentSelection outside = kept.complement();
        Visit visit;
        try {
            visit = cluster.backend().visit(VisitSpec.builder().bucketSpace(space).selection(outside)
                                                     .fieldSet(FieldSet.none()).build());
        }
        catch (RuntimeException e) { // e.g. a backend closed under a sweep
            return CompletableFuture.failedFuture(e);
        }
        running.add(visit);
        if (stopped.get())
            visit.cancel();
        CompletableFuture<Long> done = new CompletableFuture<>();
        pull(cluster, space, outside, visit, BATCH_BYTES, 0, done);
        return done.whenComplete((n, failure) -> {
            running.remove(visit);
            visit.cancel();
        });
    }

    /**
     * Pulls the next batch of at most {@code maxBytes}, removes its documents, and goes on when they are all answered;
     * a batch stopped before a larger document is pulled again with room for it.
     */
    private void pull(ContentClusters.Cluster cluster, BucketSpace space, DocumentSelection outside, Visit visit,
                      long maxBytes, long removedSoFar, CompletableFuture<Long> done) {
        visit.next(BATCH_ENTRIES, maxBytes).thenCompose(batch -> removeAll(cluster, space, outside, batch)
                .thenApply(removed -> new Object[] { batch, removed }))
             .whenComplete((result, failure) -> {
                 if (failure != null) {
                     done.completeExceptionally(failure);
                     return;
                 }
                 VisitBatch batch = (VisitBatch) result[0];
                 long removed = removedSoFar + (Long) result[1];
                 if (batch.isFinished() || stopped.get())
                     done.complete(removed);
                 else
                     pull(cluster, space, outside, visit, Math.max(BATCH_BYTES, batch.blockedBytes()), removed, done);
             });
    }

    private CompletableFuture<Long> removeAll(ContentClusters.Cluster cluster, BucketSpace space, DocumentSelection outside,
                                              VisitBatch batch) {
        List<CompletableFuture<Outcome>> removes = new ArrayList<>();
        for (VisitEntry entry : batch.entries()) {
            if (entry.isRemove())
                continue;
            OperationOptions options = OperationOptions.until(clock.instant().plus(REMOVE_TIMEOUT)).withBucketSpace(space)
                                                       .withCondition(outside);
            removes.add(cluster.backend().remove(entry.id(), options));
        }
        return CompletableFuture.allOf(removes.toArray(CompletableFuture[]::new)).thenApply(__ -> {
            long removed = 0;
            for (CompletableFuture<Outcome> remove : removes) {
                Outcome outcome = remove.join();
                if (outcome.isSuccess() && outcome.found())
                    removed++;
                else if (!outcome.isSuccess() && outcome.status() != Outcome.Status.CONDITION_FAILED)
                    throw new IllegalStateException("A remove answered " + outcome.status() + ": " + outcome.message());
            }
            figures.get(cluster.id()).removed.addAndGet(removed);
            return removed;
        });
    }

    @Override
    public List<Metric> metrics() {
        List<Metric> metrics = new ArrayList<>();
        figures.forEach((cluster, counts) -> {
            Map<String, String> dimensions = Map.of("clusterId", cluster);
            metrics.add(Metric.counter("content_gc_sweeps", dimensions, counts.sweeps.get()));
            metrics.add(Metric.counter("content_gc_removed", dimensions, counts.removed.get()));
            metrics.add(Metric.counter("content_gc_failures", dimensions, counts.failures.get()));
            metrics.add(Metric.gauge("content_gc_last_sweep_seconds", dimensions, counts.lastSweepMillis.get() / 1000.0));
        });
        return metrics;
    }

}
