package io.sluice.document.select;

import io.sluice.document.select.Expression.DocumentType;
import io.sluice.document.select.Expression.Field;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A parsed document selection, e.g. {@code music.year > 2000 and not id.namespace == "test"}.
 *
 * <p>Evaluation is three-valued ({@link Result}); a document matches only on {@link Result#TRUE}. An empty selection
 * matches everything. Instances are immutable and safe to share between threads.
 */
public final class DocumentSelection {

    /** The most assignments of field-path variables one document is evaluated under; beyond it the result is invalid. */
    static final int MAX_BINDINGS = 16_384;

    private final String source;
    private final Expression expression;
    private final BucketConstraint bucketConstraint;
    private final boolean hasVariables;
    private final boolean complement;
    private final Values values = new Values();

    private DocumentSelection(String source, Expression expression) {
        this(source, expression, false);
    }

    private DocumentSelection(String source, Expression expression, boolean complement) {
        this.source = source;
        this.expression = expression;
        this.bucketConstraint = complement ? BucketConstraint.of(new Expression.Literal(true)) : BucketConstraint.of(expression);
        this.hasVariables = hasPathVariables(expression);
        this.complement = complement;
    }

    /**
     * A selection true exactly where this one is not: false or invalid. Unlike {@code not (...)}, which is invalid
     * where its operand is, it matches a document this one cannot decide, e.g. one without a field it compares. It is
     * what garbage collection removes: every document a cluster's selection does not keep.
     */
    public DocumentSelection complement() {
        return new DocumentSelection(source, expression, !complement);
    }

    /**
     * Parses a selection.
     *
     * @throws SelectionParseException naming the position and what was expected, if {@code selection} is malformed
     */
    public static DocumentSelection parse(String selection) {
        return new DocumentSelection(selection, SelectionParser.parse(selection));
    }

    /** The syntax tree. */
    public Expression expression() {
        return expression;
    }

    /** The buckets this selection can match documents in. */
    public BucketConstraint bucketConstraint() {
        return bucketConstraint;
    }

    /**
     * Evaluates against {@code document}; {@code now()} reads {@code clock}.
     *
     * <p>A field-path variable stands for one key or index throughout the selection, as on Vespa's content nodes:
     * {@code music.m{$k}.a == 1 and music.m{$k}.b == 2} needs one entry with both. The selection is true when some
     * assignment of keys and indexes makes it true, invalid when none does and some makes it invalid, else false; a
     * document needing more than {@link #MAX_BINDINGS} assignments makes it invalid.
     */
    public Result evaluate(SelectionContext document, Clock clock) {
        Result result = evaluateExpression(document, clock);
        return complement ? Result.of(result != Result.TRUE) : result;
    }

    private Result evaluateExpression(SelectionContext document, Clock clock) {
        Evaluator unbound = new Evaluator(document, clock, values);
        if (!hasVariables)
            return unbound.truth(expression);
        Map<String, Set<Object>> domains = unbound.variableDomains(expression);
        long assignments = 1;
        for (Set<Object> domain : domains.values()) {
            assignments *= domain.size();
            if (assignments > MAX_BINDINGS)
                return Result.INVALID;
        }
        if (domains.isEmpty())
            return unbound.truth(expression);
        List<String> names = new ArrayList<>(domains.keySet());
        List<List<Object>> choices = new ArrayList<>();
        for (String name : names)
            choices.add(new ArrayList<>(domains.get(name)));
        int[] at = new int[names.size()];
        Map<String, Object> bindings = new HashMap<>();
        Result result = Result.FALSE;
        while (true) {
            for (int i = 0; i < at.length; i++)
                bindings.put(names.get(i), choices.get(i).get(at[i]));
            result = result.or(new Evaluator(document, clock, values, bindings).truth(expression));
            if (result == Result.TRUE)
                return result;
            int i = 0;
            while (i < at.length && ++at[i] == choices.get(i).size())
                at[i++] = 0;
            if (i == at.length)
                return result;
        }
    }

    private static boolean hasPathVariables(Expression node) {
        if (node instanceof Field)
            for (Expression.PathElement element : ((Field) node).path())
                if (element.kind() == Expression.PathElement.Kind.KEY_VARIABLE
                    || element.kind() == Expression.PathElement.Kind.INDEX_VARIABLE)
                    return true;
        for (Expression child : Expression.children(node))
            if (hasPathVariables(child))
                return true;
        return false;
    }

    /** Whether {@code document} matches, i.e. evaluation gives {@link Result#TRUE}. */
    public boolean matches(SelectionContext document, Clock clock) {
        return evaluate(document, clock) == Result.TRUE;
    }

    /**
     * Checks every document type and top-level field the selection names against {@code schema}.
     *
     * @throws SelectionParseException at the first unknown name
     */
    public void validate(SelectionSchema schema) {
        validate(expression, schema);
    }

    private void validate(Expression node, SelectionSchema schema) {
        if (node instanceof DocumentType) {
            DocumentType type = (DocumentType) node;
            requireType(type.name(), type.position(), schema);
        } else if (node instanceof Field) {
            Field field = (Field) node;
            requireType(field.documentType(), field.position(), schema);
            if (schema.hasField(field.documentType(), field.fieldName()))
                return;
            if (schema.hasImportedField(field.documentType(), field.fieldName())) {
                Optional<String> refusal = schema.importedFieldRefusal(field.documentType(), field.fieldName());
                if (refusal.isEmpty() && field.path().size() > 1)
                    refusal = Optional.of("'" + field.fieldName() + "' is imported from a parent document, and an"
                                          + " imported field is a single value: it has no keys, elements or fields");
                if (refusal.isEmpty())
                    return;
                throw new SelectionParseException(source, field.position(), "'" + field + "'",
                                                  "a field of document type '" + field.documentType() + "' ("
                                                  + refusal.get() + ")");
            }
            throw new SelectionParseException(source, field.position(), "'" + field + "'",
                                              "a field of document type '" + field.documentType() + "'");
        } else {
            for (Expression child : Expression.children(node)) {
                validate(child, schema);
            }
        }
    }

    private void requireType(String name, int position, SelectionSchema schema) {
        if (!schema.hasDocumentType(name)) {
            throw new SelectionParseException(source, position, "'" + name + "'", "a known document type");
        }
    }


    /** The selection as given to {@link #parse(String)}. */
    @Override
    public String toString() {
        return complement ? "anything but (" + source + ")" : source;
    }

}
