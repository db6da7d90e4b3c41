package io.sluice.container.faults;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The faults in force: rules tried in order against one uniform draw in [0, 100) per request. A request gets the first
 * matching rule whose cumulative share (of the matching rules before it, itself included) exceeds the draw, so the
 * shares of rules that match the same requests add up: {@code 429@20%,503@5%} faults 25% of requests.
 */
public final class FaultPlan {

    /** No faults. */
    public static final FaultPlan NONE = new FaultPlan(List.of());

    private final List<FaultRule> rules;
    private final List<Optional<Pattern>> idRegexes;
    private final boolean needsPath;

    private FaultPlan(List<FaultRule> rules) {
        this.rules = List.copyOf(rules);
        this.idRegexes = this.rules.stream().map(rule -> rule.idPattern().map(FaultRule::glob)).toList();
        this.needsPath = this.rules.stream().anyMatch(FaultRule::needsPath);
    }

    /**
     * A plan of {@code rules}.
     *
     * @throws IllegalArgumentException if the shares of rules that can match one request add up to more than 100%,
     *                                  naming them and the total
     */
    public static FaultPlan of(List<FaultRule> rules) {
        // Every method and document type a rule names, and one that none names, stand for all requests; id patterns
        // are taken to overlap.
        Set<Optional<String>> methods = new HashSet<>(), types = new HashSet<>();
        methods.add(Optional.empty());
        types.add(Optional.empty());
        for (FaultRule rule : rules) {
            methods.add(rule.method());
            types.add(rule.documentType());
        }
        for (Optional<String> method : methods)
            for (Optional<String> type : types) {
                List<FaultRule> overlapping = rules.stream()
                        .filter(rule -> rule.method().isEmpty() || rule.method().equals(method))
                        .filter(rule -> rule.documentType().isEmpty() || rule.documentType().equals(type))
                        .toList();
                double total = overlapping.stream().mapToDouble(FaultRule::percent).sum();
                if (total > 100 + 1e-9)
                    throw new IllegalArgumentException("the shares of faults that match the same requests add up to "
                                                       + FaultSpec.percent(total) + "%, more than 100%: "
                                                       + String.join(",", overlapping.stream().map(FaultRule::toString).toList()));
            }
        return new FaultPlan(rules);
    }

    public List<FaultRule> rules() {
        return rules;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** Whether some rule matches on document type or id, so the request path must be parsed. */
    boolean needsPath() {
        return needsPath;
    }

    /** The rule a request with {@code draw} in [0, 100) gets, if any. */
    Optional<FaultRule> choose(double draw, String method, Optional<String> documentType, Optional<String> id) {
        double cumulative = 0;
        for (int i = 0; i < rules.size(); i++) {
            FaultRule rule = rules.get(i);
            if ( ! rule.matches(method, documentType, id, idRegexes.get(i)))
                continue;
            cumulative += rule.percent();
            if (draw < cumulative)
                return Optional.of(rule);
        }
        return Optional.empty();
    }

    /** As a {@code --faults} spec: the rules joined by commas, or {@code none}. */
    @Override
    public String toString() {
        return rules.isEmpty() ? FaultSpec.NONE : String.join(",", rules.stream().map(FaultRule::toString).toList());
    }

}
