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
import java.util.List;
import java.util.Map;

/**
 * Evaluates one expression tree against one document. Values are the plain view of {@link SelectionContext}, plus
 * {@link Result#FALSE} for a field of another document type (the whole comparison is then false),
 * {@link Result#INVALID}, and {@link Values.Multi} for the several values a field path can reach.
 */
final class Evaluator {

    private final SelectionContext document;
    private final Clock clock;
    private final Values values;

    Evaluator(SelectionContext document, Clock clock, Values values) {
        this.document = document;
        this.clock = clock;
        this.values = values;
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
            return Result.INVALID;
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
                multi |= step(value, element, next);
            }
            current = next;
        }
        if (current.isEmpty()) {
            return null;
        }
        return multi || current.size() > 1 ? new Values.Multi(current) : current.get(0);
    }

    /** Adds what {@code element} reaches from {@code value} to {@code out}; returns whether it fanned out. */
    private static boolean step(Object value, PathElement element, List<Object> out) {
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
                    out.addAll(((Map<?, ?>) value).values());
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
                    out.addAll((List<?>) value);
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
