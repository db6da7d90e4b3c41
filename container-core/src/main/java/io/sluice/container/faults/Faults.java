package io.sluice.container.faults;

import io.sluice.container.Metric;
import io.sluice.container.MetricsSource;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * The faults in force on a server, what they have done, and the random draws that pick the requests: one draw per
 * {@code /document/v1} request from a generator seeded at start and on every {@link #replace} with a seed, so a test
 * that sends its requests one at a time gets the same faults on every run. Thread-safe.
 */
public final class Faults implements MetricsSource {

    private final Object lock = new Object();
    private final AtomicLong requests = new AtomicLong();
    private final Map<FaultRule.Kind, AtomicLong> injected = new EnumMap<>(FaultRule.Kind.class);
    private volatile FaultPlan plan;
    private RandomGenerator random; // guarded by lock
    private long seed; // guarded by lock

    private Faults(FaultPlan plan, long seed) {
        this.plan = Objects.requireNonNull(plan, "plan");
        this.seed = seed;
        this.random = new SplittableRandom(seed);
        for (FaultRule.Kind kind : FaultRule.Kind.values())
            injected.put(kind, new AtomicLong());
    }

    /** Faults of {@code plan}, drawn from a generator seeded with {@code seed}. */
    public static Faults of(FaultPlan plan, long seed) {
        return new Faults(plan, seed);
    }

    public FaultPlan plan() {
        return plan;
    }

    /** The seed the current draws started from. */
    public long seed() {
        synchronized (lock) {
            return seed;
        }
    }

    /** Puts {@code plan} in force; with a seed, draws start over from it. */
    public void replace(FaultPlan plan, java.util.OptionalLong seed) {
        synchronized (lock) {
            this.plan = Objects.requireNonNull(plan, "plan");
            if (seed.isPresent()) {
                this.seed = seed.getAsLong();
                this.random = new SplittableRandom(this.seed);
            }
        }
    }

    /** Draws for one request, in the order requests arrive; counts the request and its fault, if any. */
    Optional<FaultRule> draw(FaultPlan plan, String method, Optional<String> documentType, Optional<String> id) {
        requests.incrementAndGet();
        if (plan.isEmpty())
            return Optional.empty();
        double draw;
        synchronized (lock) {
            draw = random.nextDouble() * 100;
        }
        Optional<FaultRule> rule = plan.choose(draw, method, documentType, id);
        rule.ifPresent(r -> injected.get(r.fault().kind()).incrementAndGet());
        return rule;
    }

    /** How many requests got a fault of {@code kind} since start. */
    public long injected(FaultRule.Kind kind) {
        return injected.get(kind).get();
    }

    /** How many {@code /document/v1} requests were considered since start. */
    public long requests() {
        return requests.get();
    }

    /**
     * {@code sluice_faults_requests} (requests considered), {@code sluice_faults_injected} per fault kind, and a
     * {@code sluice_faults_percent} gauge for each rule in force, its filters as dimensions.
     */
    @Override
    public List<Metric> metrics() {
        List<Metric> metrics = new ArrayList<>();
        metrics.add(Metric.counter("sluice_faults_requests", Map.of(), requests.get()));
        for (FaultRule.Kind kind : FaultRule.Kind.values())
            metrics.add(Metric.counter("sluice_faults_injected", Map.of("fault", kind.specName()), injected(kind)));
        List<FaultRule> rules = plan.rules();
        for (int i = 0; i < rules.size(); i++) {
            FaultRule rule = rules.get(i);
            Map<String, String> dimensions = new LinkedHashMap<>();
            dimensions.put("rule", String.valueOf(i));
            dimensions.put("fault", rule.fault().toString());
            rule.method().ifPresent(m -> dimensions.put("method", m));
            rule.documentType().ifPresent(t -> dimensions.put("documenttype", t));
            rule.idPattern().ifPresent(p -> dimensions.put("id", p));
            metrics.add(Metric.gauge("sluice_faults_percent", dimensions, rule.percent()));
        }
        return metrics;
    }

}
