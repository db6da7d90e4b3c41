package io.sluice.document.select;

import io.sluice.document.select.Expression.And;
import io.sluice.document.select.Expression.Arithmetic;
import io.sluice.document.select.Expression.Comparison;
import io.sluice.document.select.Expression.DocumentType;
import io.sluice.document.select.Expression.Field;
import io.sluice.document.select.Expression.FunctionCall;
import io.sluice.document.select.Expression.Not;
import io.sluice.document.select.Expression.Or;

import java.time.Clock;
import java.util.List;

/**
 * A parsed document selection, e.g. {@code music.year > 2000 and not id.namespace == "test"}.
 *
 * <p>Evaluation is three-valued ({@link Result}); a document matches only on {@link Result#TRUE}. An empty selection
 * matches everything. Instances are immutable and safe to share between threads.
 */
public final class DocumentSelection {

    private final String source;
    private final Expression expression;
    private final BucketConstraint bucketConstraint;
    private final Values values = new Values();

    private DocumentSelection(String source, Expression expression) {
        this.source = source;
        this.expression = expression;
        this.bucketConstraint = BucketConstraint.of(expression);
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

    /** Evaluates against {@code document}; {@code now()} reads {@code clock}. */
    public Result evaluate(SelectionContext document, Clock clock) {
        return new Evaluator(document, clock, values).truth(expression);
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
            if (schema.hasImportedField(field.documentType(), field.fieldName()))
                throw new SelectionParseException(source, field.position(), "'" + field + "'",
                                                  "a field of document type '" + field.documentType() + "' ('"
                                                  + field.fieldName() + "' is imported from a parent document, and Sluice"
                                                  + " does not follow references in selections)");
            throw new SelectionParseException(source, field.position(), "'" + field + "'",
                                              "a field of document type '" + field.documentType() + "'");
        } else {
            for (Expression child : children(node)) {
                validate(child, schema);
            }
        }
    }

    private void requireType(String name, int position, SelectionSchema schema) {
        if (!schema.hasDocumentType(name)) {
            throw new SelectionParseException(source, position, "'" + name + "'", "a known document type");
        }
    }

    private static List<Expression> children(Expression node) {
        if (node instanceof And) {
            return ((And) node).operands();
        }
        if (node instanceof Or) {
            return ((Or) node).operands();
        }
        if (node instanceof Not) {
            return List.of(((Not) node).operand());
        }
        if (node instanceof Comparison) {
            return List.of(((Comparison) node).left(), ((Comparison) node).right());
        }
        if (node instanceof Arithmetic) {
            return List.of(((Arithmetic) node).left(), ((Arithmetic) node).right());
        }
        if (node instanceof FunctionCall) {
            return List.of(((FunctionCall) node).target());
        }
        return List.of();
    }

    /** The selection as given to {@link #parse(String)}. */
    @Override
    public String toString() {
        return source;
    }

}
