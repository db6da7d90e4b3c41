package io.sluice.document.predicate;

import io.sluice.document.predicate.Predicate.Conjunction;
import io.sluice.document.predicate.Predicate.Constant;
import io.sluice.document.predicate.Predicate.Disjunction;
import io.sluice.document.predicate.Predicate.FeatureRange;
import io.sluice.document.predicate.Predicate.FeatureSet;
import io.sluice.document.predicate.Predicate.Negation;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes a predicate in the form Vespa's {@code Predicate.toString()} gives it, which is what Vespa returns for a
 * predicate field:
 * <ul>
 *   <li>{@code key in [v1, v2]} with the values sorted; {@code key in [from..to]} with a missing bound left out;</li>
 *   <li>a negated feature set as {@code key not in [...]}, any other negation as {@code not (...)};</li>
 *   <li>{@code a and b}, {@code a or b}, with parentheses only around a disjunction inside a conjunction and a
 *       conjunction inside a disjunction;</li>
 *   <li>a key or value that is not all ASCII letters and digits in single quotes, with backslash, the quote, control
 *       characters and everything outside printable ASCII escaped: {@code \\}, {@code \f}, {@code \n}, {@code \r},
 *       {@code \t}, else each UTF-8 byte as {@code \xHH}.</li>
 * </ul>
 * One deviation: Vespa writes an empty key or value as nothing at all, which does not parse; this writes {@code ''}.
 */
final class PredicatePrinter {

    private static final char QUOTE = '\'';

    private PredicatePrinter() { }

    static String print(Predicate predicate) {
        StringBuilder out = new StringBuilder();
        append(predicate, out);
        return out.toString();
    }

    private static void append(Predicate predicate, StringBuilder out) {
        if (predicate instanceof FeatureSet) {
            appendSet((FeatureSet) predicate, "in", out);
        } else if (predicate instanceof FeatureRange) {
            appendRange((FeatureRange) predicate, out);
        } else if (predicate instanceof Negation) {
            Predicate operand = ((Negation) predicate).operand();
            if (operand instanceof FeatureSet) {
                appendSet((FeatureSet) operand, "not in", out);
            } else {
                out.append("not (");
                append(operand, out);
                out.append(')');
            }
        } else if (predicate instanceof Conjunction) {
            appendOperands(((Conjunction) predicate).operands(), " and ", Disjunction.class, out);
        } else if (predicate instanceof Disjunction) {
            appendOperands(((Disjunction) predicate).operands(), " or ", Conjunction.class, out);
        } else {
            out.append(((Constant) predicate).value());
        }
    }

    private static void appendSet(FeatureSet set, String in, StringBuilder out) {
        appendQuoted(set.key(), out);
        out.append(' ').append(in).append(" [");
        for (int i = 0; i < set.values().size(); i++) {
            if (i > 0) out.append(", ");
            appendQuoted(set.values().get(i), out);
        }
        out.append(']');
    }

    private static void appendRange(FeatureRange range, StringBuilder out) {
        appendQuoted(range.key(), out);
        out.append(" in [");
        if (range.from() != null) out.append(range.from());
        out.append("..");
        if (range.to() != null) out.append(range.to());
        out.append(']');
    }

    private static void appendOperands(List<Predicate> operands, String separator,
                                       Class<? extends Predicate> parenthesized, StringBuilder out) {
        for (int i = 0; i < operands.size(); i++) {
            if (i > 0) out.append(separator);
            Predicate operand = operands.get(i);
            boolean parentheses = parenthesized.isInstance(operand);
            if (parentheses) out.append('(');
            append(operand, out);
            if (parentheses) out.append(')');
        }
    }

    /** {@code text} as it is if it is all ASCII letters and digits, else escaped in single quotes. */
    static void appendQuoted(String text, StringBuilder out) {
        if (!text.isEmpty() && isPlain(text)) {
            out.append(text);
            return;
        }
        out.append(QUOTE);
        text.codePoints().forEach(c -> appendEscaped(c, out));
        out.append(QUOTE);
    }

    private static boolean isPlain(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9')) return false;
        }
        return true;
    }

    private static void appendEscaped(int c, StringBuilder out) {
        switch (c) {
            case '\\': out.append("\\\\"); return;
            case '\f': out.append("\\f"); return;
            case '\n': out.append("\\n"); return;
            case '\r': out.append("\\r"); return;
            case '\t': out.append("\\t"); return;
            default:
                if (c >= 0x20 && c < 0x7F && c != QUOTE) {
                    out.append((char) c);
                    return;
                }
                for (byte b : new String(Character.toChars(c)).getBytes(StandardCharsets.UTF_8))
                    out.append(String.format("\\x%02X", b & 0xFF));
        }
    }
}
