package io.sluice.document.select;

import com.google.re2j.Pattern;
import io.sluice.document.BucketId;
import io.sluice.document.select.Expression.ArithmeticOperator;
import io.sluice.document.select.Expression.ComparisonOperator;
import io.sluice.document.select.Expression.FunctionCall;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Operations on selection values: comparisons (with any-of semantics over multi-values), arithmetic and functions.
 * Holds a small cache of compiled regular expressions, so one instance serves one parsed selection.
 */
final class Values {

    private static final int MAX_CACHED_PATTERNS = 64;

    /** The several values a field path reached; a comparison holds if it holds for any of them. */
    record Multi(List<Object> values) {
    }

    private final Map<String, Pattern> patterns = new ConcurrentHashMap<>();

    Result compare(Object left, ComparisonOperator operator, Object right) {
        if (left == Result.FALSE || right == Result.FALSE) {
            return Result.FALSE;
        }
        if (left == Result.INVALID || right == Result.INVALID) {
            return Result.INVALID;
        }
        Result result = Result.FALSE;
        for (Object l : alternatives(left)) {
            for (Object r : alternatives(right)) {
                result = result.or(compareOne(l, operator, r));
                if (result == Result.TRUE) {
                    return result;
                }
            }
        }
        return result;
    }

    /** Arrays stand for their elements, maps and weighted sets for their keys. */
    private static List<Object> alternatives(Object value) {
        if (value instanceof Multi || value instanceof List || value instanceof Map) {
            List<Object> out = new ArrayList<>();
            Iterable<?> items = value instanceof Multi ? ((Multi) value).values()
                                : value instanceof List ? (List<?>) value : ((Map<?, ?>) value).keySet();
            for (Object item : items) {
                out.addAll(alternatives(item));
            }
            return out;
        }
        return Collections.singletonList(value);
    }

    private Result compareOne(Object left, ComparisonOperator operator, Object right) {
        if (left instanceof BucketId || right instanceof BucketId) {
            return compareBucket(left, operator, right);
        }
        switch (operator) {
            case EQ: return equal(left, right);
            case NE: return equal(left, right).not();
            case LT: return order(left, right, c -> c < 0);
            case GT: return order(left, right, c -> c > 0);
            case LE: return order(left, right, c -> c <= 0);
            case GE: return order(left, right, c -> c >= 0);
            case GLOB: return glob(left, right);
            default: return regex(left, right);
        }
    }

    /**
     * {@code id.bucket == b} holds when bucket {@code b} (a raw bucket id) contains the document's bucket; a value no
     * bucket can have (more than 58 used bits) contains no document.
     */
    private static Result compareBucket(Object left, ComparisonOperator operator, Object right) {
        BucketId document = (BucketId) (left instanceof BucketId ? left : right);
        Object other = left instanceof BucketId ? right : left;
        if (!(other instanceof Long) || (operator != ComparisonOperator.EQ && operator != ComparisonOperator.NE)) {
            return Result.INVALID;
        }
        long raw = (Long) other;
        boolean contained = BucketId.isRaw(raw) && BucketId.ofRaw(raw).contains(document);
        return Result.of(operator == ComparisonOperator.EQ ? contained : !contained);
    }

    private static boolean isNumeric(Object value) {
        return value instanceof Long || value instanceof Double || value instanceof Boolean;
    }

    private static boolean isScalar(Object value) {
        return isNumeric(value) || value instanceof String;
    }

    private static double asDouble(Object value) {
        if (value instanceof Boolean) {
            return (Boolean) value ? 1 : 0;
        }
        return ((Number) value).doubleValue();
    }

    private static long asLong(Object value) {
        return value instanceof Boolean ? ((Boolean) value ? 1 : 0) : (Long) value;
    }

    private static Result equal(Object left, Object right) {
        if (left == null || right == null) {
            return Result.of(left == right);
        }
        if (isNumeric(left) && isNumeric(right)) {
            if (left instanceof Double || right instanceof Double) {
                return Result.of(asDouble(left) == asDouble(right));
            }
            return Result.of(asLong(left) == asLong(right));
        }
        if (isScalar(left) && isScalar(right)) {
            return Result.of(String.valueOf(left).equals(String.valueOf(right)));
        }
        if (left instanceof byte[] && right instanceof byte[]) {
            return Result.of(Arrays.equals((byte[]) left, (byte[]) right));
        }
        return Result.INVALID;
    }

    private interface Ordering {
        boolean holds(int comparison);
    }

    private static Result order(Object left, Object right, Ordering ordering) {
        if (isNumeric(left) && isNumeric(right)) {
            if (left instanceof Double || right instanceof Double) {
                double l = asDouble(left);
                double r = asDouble(right);
                if (Double.isNaN(l) || Double.isNaN(r)) {
                    return Result.FALSE;
                }
                return Result.of(ordering.holds(Double.compare(l == 0 ? 0.0 : l, r == 0 ? 0.0 : r)));
            }
            return Result.of(ordering.holds(Long.compare(asLong(left), asLong(right))));
        }
        if (left instanceof String && right instanceof String) {
            return Result.of(ordering.holds(compareUtf8((String) left, (String) right)));
        }
        return Result.INVALID;
    }

    /** Compares as UTF-8 bytes would: by code point. */
    private static int compareUtf8(String left, String right) {
        int i = 0;
        int j = 0;
        while (i < left.length() && j < right.length()) {
            int a = left.codePointAt(i);
            int b = right.codePointAt(j);
            if (a != b) {
                return Integer.compare(a, b);
            }
            i += Character.charCount(a);
            j += Character.charCount(b);
        }
        return Boolean.compare(i < left.length(), j < right.length());
    }

    private static Result glob(Object left, Object right) {
        if (!isScalar(left) || !isScalar(right)) {
            return Result.INVALID;
        }
        return Result.of(Glob.matches(String.valueOf(right), String.valueOf(left)));
    }

    /** As on Vespa's content nodes, {@code =~} is defined on strings only: a number on either side is invalid. */
    private Result regex(Object left, Object right) {
        if (!(left instanceof String) || !(right instanceof String)) {
            return Result.INVALID;
        }
        Pattern pattern = pattern(String.valueOf(right));
        if (pattern == null) {
            return Result.INVALID;
        }
        return Result.of(pattern.matcher(String.valueOf(left)).find()); // RE2: linear in the text
    }

    private Pattern pattern(String regex) {
        Pattern cached = patterns.get(regex);
        if (cached != null) {
            return cached;
        }
        try {
            Pattern compiled = SelectionRegex.compile(regex);
            if (patterns.size() < MAX_CACHED_PATTERNS) {
                patterns.put(regex, compiled);
            }
            return compiled;
        } catch (SelectionRegex.InvalidPattern e) {
            return null; // only a computed pattern can be invalid here: literal ones are checked when parsed
        }
    }

    /** A map key given as text in a field path matches a key whose string form, or numeric value, is the same. */
    static boolean keyMatches(Object key, String text) {
        if (String.valueOf(key).equals(text)) {
            return true;
        }
        if (key instanceof Long || key instanceof Double) {
            try {
                return ((Number) key).doubleValue() == Double.parseDouble(text);
            } catch (NumberFormatException e) {
                return false;
            }
        }
        return false;
    }

    Object arithmetic(Object left, ArithmeticOperator operator, Object right) {
        if (left == Result.FALSE || right == Result.FALSE) {
            return Result.FALSE;
        }
        if (left instanceof String && right instanceof String && operator == ArithmeticOperator.ADD) {
            return left + (String) right;
        }
        boolean numbers = (left instanceof Long || left instanceof Double)
                          && (right instanceof Long || right instanceof Double);
        if (!numbers) {
            return Result.INVALID;
        }
        if (left instanceof Long && right instanceof Long) {
            long l = (Long) left;
            long r = (Long) right;
            switch (operator) {
                case ADD: return l + r;
                case SUBTRACT: return l - r;
                case MULTIPLY: return l * r;
                case DIVIDE: return r == 0 ? Result.INVALID : (Object) (l / r);
                default: return r == 0 ? Result.INVALID : (Object) (l % r);
            }
        }
        double l = ((Number) left).doubleValue();
        double r = ((Number) right).doubleValue();
        switch (operator) {
            case ADD: return l + r;
            case SUBTRACT: return l - r;
            case MULTIPLY: return l * r;
            case DIVIDE: return l / r;
            default: return l % r;
        }
    }

    Object apply(FunctionCall.Function function, Object value) {
        if (value instanceof Result) {
            return value;
        }
        if (value instanceof Multi || value instanceof List) {
            List<Object> out = new ArrayList<>();
            for (Object item : value instanceof Multi ? ((Multi) value).values() : (List<?>) value) {
                out.add(apply(function, item));
            }
            return new Multi(out);
        }
        switch (function) {
            case ABS:
                if (value instanceof Long) {
                    return Math.abs((Long) value);
                }
                return value instanceof Double ? (Object) Math.abs((Double) value) : Result.INVALID;
            case LOWERCASE:
                return isScalar(value) ? String.valueOf(value).toLowerCase(Locale.ROOT) : Result.INVALID;
            case UPPERCASE:
                return isScalar(value) ? String.valueOf(value).toUpperCase(Locale.ROOT) : Result.INVALID;
            default:
                return isScalar(value) ? (Object) md5Long(String.valueOf(value)) : Result.INVALID;
        }
    }

    /** The first eight bytes of the MD5 of the UTF-8 text, little-endian, as a signed long. */
    static long md5Long(String text) {
        try {
            byte[] md5 = MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
            long value = 0;
            for (int i = 0; i < 8; i++) {
                value |= (md5[i] & 0xFFL) << (8 * i);
            }
            return value;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java platform must provide MD5", e);
        }
    }

}
