package io.sluice.document.select;

import io.sluice.document.BucketId;
import io.sluice.document.select.Expression.And;
import io.sluice.document.select.Expression.Arithmetic;
import io.sluice.document.select.Expression.Comparison;
import io.sluice.document.select.Expression.DocumentType;
import io.sluice.document.select.Expression.Field;
import io.sluice.document.select.Expression.FunctionCall;
import io.sluice.document.select.Expression.Id;
import io.sluice.document.select.Expression.Literal;
import io.sluice.document.select.Expression.Not;
import io.sluice.document.select.Expression.Now;
import io.sluice.document.select.Expression.Or;
import io.sluice.document.select.Expression.PathElement;
import io.sluice.document.select.Expression.Variable;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Evaluates one expression tree against one document. Values are the plain view of {@link SelectionContext}, plus
 * {@link Result#FALSE} for a field of another document type (the whole comparison is then false),
 * {@link Result#INVALID}, and {@link Values.Multi} for the several values a field path can reach.
 *
 * <p>A field-path variable ({@code $x} in {@code {$x}} or {@code [$x]}) that {@code bindings} binds selects that one
 * map key or array index wherever it appears; an unbound one ranges over every key or index of its step.
 */
final class Evaluator {

    private final SelectionContext document;
    private final Clock clock;
    private final Values values;
    private final Map<String, Object> bindings;

    Evaluator(SelectionContext document, Clock clock, Values values) {
        this(document, clock, values, Map.of());
    }

    Evaluator(SelectionContext document, Clock clock, Values values, Map<String, Object> bindings) {
        this.document = document;
        this.clock = clock;
        this.values = values;
        this.bindings = bindings;
    }

    Result truth(Expression expression) {
        if (expression instanceof And) {
            Result result = Result.TRUE;
            for (Expression operand : ((And) expression).operands()) {
                result = result.and(truth(operand));
                if (result == Result.FALSE) {
                    return result;
                }
            }
            return result;
        }
        if (expression instanceof Or) {
            Result result = Result.FALSE;
            for (Expression operand : ((Or) expression).operands()) {
                result = result.or(truth(operand));
                if (result == Result.TRUE) {
                    return result;
                }
            }
            return result;
        }
        if (expression instanceof Not) {
            return truth(((Not) expression).operand()).not();
        }
        if (expression instanceof Comparison) {
            Comparison comparison = (Comparison) expression;
            return values.compare(value(comparison.left()), comparison.operator(), value(comparison.right()));
        }
        Object value = value(expression);
        if (value instanceof Result) {
            return (Result) value;
        }
        if (value instanceof Boolean && !(expression instanceof Field)) {
            return Result.of((Boolean) value);
        }
        return Result.of(value != null);
    }

    Object value(Expression expression) {
        if (expression instanceof Literal) {
            return ((Literal) expression).value();
        }
        if (expression instanceof Field) {
            return field((Field) expression);
        }
        if (expression instanceof DocumentType) {
            return document.isOfType(((DocumentType) expression).name());
        }
        if (expression instanceof Id) {
            return id(((Id) expression).part());
        }
        if (expression instanceof Now) {
            return clock.instant().getEpochSecond();
        }
        if (expression instanceof Variable) {
            Object bound = bindings.get(((Variable) expression).name());
            if (bound instanceof Integer) {
                return (long) (Integer) bound;
            }
            return bound != null ? bound : Result.INVALID;
        }
        if (expression instanceof FunctionCall) {
            FunctionCall call = (FunctionCall) expression;
            return values.apply(call.function(), value(call.target()));
        }
        if (expression instanceof Arithmetic) {
            Arithmetic arithmetic = (Arithmetic) expression;
            return values.arithmetic(value(arithmetic.left()), arithmetic.operator(), value(arithmetic.right()));
        }
        Result result = truth(expression);
        return result == Result.INVALID ? result : (Object) (result == Result.TRUE);
    }

    private Object id(Id.Part part) {
        switch (part) {
            case WHOLE: return document.id().toString();
            case SCHEME: return "id";
            case NAMESPACE: return document.id().namespace();
            case TYPE: return document.id().documentType();
            case SPECIFIC: return document.id().userSpecific();
            case USER: return document.id().number().isPresent() ? (Object) document.id().number().getAsLong() : null;
            case GROUP: return document.id().group().orElse(null);
            default: return BucketId.of(document.id());
        }
    }

    private Object field(Field field) {
        if (!document.isOfType(field.documentType())) {
            return Result.FALSE;
        }
        if (!document.hasFields()) {
            return Result.INVALID;
        }
        List<Object> current = new ArrayList<>();
        boolean multi = walk(field, current, null);
        if (current.isEmpty()) {
            return null;
        }
        return multi || current.size() > 1 ? new Values.Multi(current) : current.get(0);
    }

    /**
     * Puts the values {@code field}'s path reaches in {@code out}; returns whether it fanned out. With {@code domains},
     * also adds every key or index an unbound variable step ranges over to that variable's domain.
     */
    private boolean walk(Field field, List<Object> out, Map<String, Set<Object>> domains) {
        List<PathElement> path = field.path();
        Object top = document.fieldValue(path.get(0).name());
        List<Object> current = new ArrayList<>();
        if (top != null) {
            current.add(top);
        }
        boolean multi = false;
        for (PathElement element : path.subList(1, path.size())) {
            List<Object> next = new ArrayList<>();
            for (Object value : current) {
                if (domains != null) {
                    addDomain(value, element, domains);
                }
                multi |= step(value, element, next);
            }
            current = next;
        }
        out.addAll(current);
        return multi;
    }

    private void addDomain(Object value, PathElement element, Map<String, Set<Object>> domains) {
        if (bindings.containsKey(element.name())) {
            return;
        }
        if (element.kind() == PathElement.Kind.KEY_VARIABLE && value instanceof Map) {
            domains.computeIfAbsent(element.name(), name -> new LinkedHashSet<>()).addAll(((Map<?, ?>) value).keySet());
        } else if (element.kind() == PathElement.Kind.INDEX_VARIABLE && value instanceof List) {
            Set<Object> domain = domains.computeIfAbsent(element.name(), name -> new LinkedHashSet<>());
            for (int i = 0; i < ((List<?>) value).size(); i++) {
                domain.add(i);
            }
        }
    }

    /**
     * The keys and indexes each field-path variable of {@code expression} can take in this document, by variable
     * name; a variable whose steps reach nothing has no entry.
     */
    Map<String, Set<Object>> variableDomains(Expression expression) {
        Map<String, Set<Object>> domains = new LinkedHashMap<>();
        collectDomains(expression, domains);
        return domains;
    }

    private void collectDomains(Expression expression, Map<String, Set<Object>> domains) {
        if (expression instanceof Field) {
            Field field = (Field) expression;
            if (document.hasFields() && document.isOfType(field.documentType())) {
                walk(field, new ArrayList<>(), domains);
            }
        } else {
            for (Expression child : Expression.children(expression)) {
                collectDomains(child, domains);
            }
        }
    }

    /** Adds what {@code element} reaches from {@code value} to {@code out}; returns whether it fanned out. */
    private boolean step(Object value, PathElement element, List<Object> out) {
        switch (element.kind()) {
            case FIELD:
                if (value instanceof SelectionContext.Struct) {
                    addIfSet(((SelectionContext.Struct) value).fields().get(element.name()), out);
                    return false;
                }
                if (value instanceof List) {
                    for (Object item : (List<?>) value) {
                        step(item, element, out);
                    }
                    return true;
                }
                if (value instanceof Map && element.name().equals("key")) {
                    out.addAll(((Map<?, ?>) value).keySet());
                    return true;
                }
                if (value instanceof Map && element.name().equals("value")) {
                    out.addAll(((Map<?, ?>) value).values());
                    return true;
                }
                return false;
            case KEY:
                if (value instanceof Map) {
                    for (Map.Entry<?, ?> entry : ((Map<?, ?>) value).entrySet()) {
                        if (Values.keyMatches(entry.getKey(), element.name())) {
                            addIfSet(entry.getValue(), out);
                        }
                    }
                }
                return false;
            case KEY_VARIABLE:
                if (value instanceof Map) {
                    Map<?, ?> map = (Map<?, ?>) value;
                    if (bindings.containsKey(element.name())) {
                        addIfSet(map.get(bindings.get(element.name())), out);
                        return false;
                    }
                    out.addAll(map.values());
                }
                return true;
            case INDEX:
                if (value instanceof List) {
                    List<?> list = (List<?>) value;
                    int index = Integer.parseInt(element.name());
                    if (index < list.size()) {
                        addIfSet(list.get(index), out);
                    }
                }
                return false;
            default:
                if (value instanceof List) {
                    List<?> list = (List<?>) value;
                    Object bound = bindings.get(element.name());
                    if (bound instanceof Integer) {
                        if ((Integer) bound < list.size()) {
                            addIfSet(list.get((Integer) bound), out);
                        }
                        return false;
                    }
                    out.addAll(list);
                }
                return true;
        }
    }

    private static void addIfSet(Object value, List<Object> out) {
        if (value != null) {
            out.add(value);
        }
    }

}
