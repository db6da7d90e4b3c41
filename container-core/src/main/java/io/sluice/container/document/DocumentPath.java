package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import io.sluice.document.DocumentId;
import org.eclipse.jetty.http.HttpStatus;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Collectors;

/**
 * A {@code /document/v1} request path matched against the {@link Route} table (spec §1.1): the raw path is split on
 * {@code /}, each segment form-decoded ({@code +} is a space, {@code %2F} a slash inside the segment), and a trailing
 * slash is ignored.
 *
 * @param route     the matched route
 * @param rawPath   the path as sent, still encoded: the {@code pathId} of every response
 * @param namespace the namespace, empty only for {@link Route#ROOT}
 * @param documentType the document type, empty only for {@link Route#ROOT}
 * @param group     the {@code group/{group}} value, if the route has one
 * @param number    the {@code number/{number}} value (unsigned), if the route has one
 * @param userSpecific the decoded remaining segments joined with {@code /}, for the single-document routes
 */
public record DocumentPath(Route route, String rawPath, Optional<String> namespace, Optional<String> documentType,
                           Optional<String> group, OptionalLong number, Optional<String> userSpecific) {

    private static final String PREFIX = "/document/v1";

    // The namespace and type of the last path parsed, by any thread: most requests repeat them, and then take these
    // instead of new strings (whose hash codes the cluster lookups would compute again) and optionals. Racy by design:
    // an Optional and its String are immutable, so a thread sees one path's value or another's, and checks it against
    // its own path before use.
    private static Optional<String> lastNamespace = Optional.of("");
    private static Optional<String> lastType = Optional.of("");

    public DocumentPath {
        Objects.requireNonNull(route, "route");
        Objects.requireNonNull(rawPath, "rawPath");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(documentType, "documentType");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(number, "number");
        Objects.requireNonNull(userSpecific, "userSpecific");
    }

    /**
     * Matches a raw (still percent-encoded) request path.
     *
     * @throws HttpStatusException 400 for an empty, {@code .} or {@code ..} segment, a malformed escape, a bad number
     *                             or group; 404 listing the available paths when no route matches
     */
    public static DocumentPath parse(String rawPath) {
        Segments segments = Segments.of(rawPath);
        if (segments.count() < 2 || ! segments.isV1())
            throw nothingAt(rawPath);
        int rest = segments.count() - 2;
        if (rest == 0)
            return new DocumentPath(Route.ROOT, rawPath, Optional.empty(), Optional.empty(), Optional.empty(),
                                    OptionalLong.empty(), Optional.empty());
        if (rest < 3)
            throw nothingAt(rawPath);
        Optional<String> likelyNamespace = lastNamespace, likelyType = lastType; // each field read once
        Optional<String> namespace = segments.decodedLike(2, likelyNamespace);
        Optional<String> type = segments.decodedLike(3, likelyType);
        if (namespace != likelyNamespace) // written only when it changes: no cache line bounced between cores
            lastNamespace = namespace;
        if (type != likelyType)
            lastType = type;
        int tail = 5;
        boolean hasTail = segments.count() > tail;
        switch (segments.is(4, "docid") ? "docid" : segments.decoded(4)) {
            case "docid":
                if ( ! hasTail)
                    return new DocumentPath(Route.DOCID_SELECTION, rawPath, namespace, type, Optional.empty(),
                                            OptionalLong.empty(), Optional.empty());
                return new DocumentPath(Route.DOCID_DOCUMENT, rawPath, namespace, type, Optional.empty(),
                                        OptionalLong.empty(), Optional.of(segments.joined(tail)));
            case "group":
                if ( ! hasTail)
                    throw nothingAt(rawPath);
                Optional<String> group = Optional.of(group(segments.decoded(tail)));
                return segments.count() == tail + 1
                       ? new DocumentPath(Route.GROUP_SELECTION, rawPath, namespace, type, group, OptionalLong.empty(),
                                          Optional.empty())
                       : new DocumentPath(Route.GROUP_DOCUMENT, rawPath, namespace, type, group, OptionalLong.empty(),
                                          Optional.of(segments.joined(tail + 1)));
            case "number":
                if ( ! hasTail)
                    throw nothingAt(rawPath);
                OptionalLong number = OptionalLong.of(number(segments.decoded(tail)));
                return segments.count() == tail + 1
                       ? new DocumentPath(Route.NUMBER_SELECTION, rawPath, namespace, type, Optional.empty(), number,
                                          Optional.empty())
                       : new DocumentPath(Route.NUMBER_DOCUMENT, rawPath, namespace, type, Optional.empty(), number,
                                          Optional.of(segments.joined(tail + 1)));
            default:
                throw nothingAt(rawPath);
        }
    }

    /**
     * The id of the addressed document: {@code id:<ns>:<type>:[n=<n>|g=<g>]:<rest>}.
     *
     * @throws IllegalStateException if this is a selection route
     * @throws HttpStatusException 400 with the id parser's message if the id is invalid
     */
    public DocumentId documentId() {
        if (route.isSelection())
            throw new IllegalStateException(route + " addresses no single document");
        // A DocumentException is a 400 (Failures).
        if (group.isPresent())
            return DocumentId.ofGroup(namespace.get(), documentType.get(), group.get(), userSpecific.get());
        if (number.isPresent() && number.getAsLong() >= 0)
            return DocumentId.ofNumber(namespace.get(), documentType.get(), number.getAsLong(), userSpecific.get());
        if (number.isPresent()) // above Long.MAX_VALUE: rejected by the id parser, with its message
            return DocumentId.of("id:" + namespace.get() + ":" + documentType.get() + ":n="
                                 + Long.toUnsignedString(number.getAsLong()) + ":" + userSpecific.get());
        return DocumentId.of(namespace.get(), documentType.get(), userSpecific.get());
    }

    /** The 404 for a path no route matches, listing the path specifications. */
    static HttpStatusException nothingAt(String rawPath) {
        return new HttpStatusException(HttpStatus.NOT_FOUND_404,
                                       "Nothing at '" + rawPath + "'. Available paths are:\n"
                                       + Arrays.stream(Route.values()).map(Route::spec).collect(Collectors.joining("\n")));
    }

    /**
     * The segments of a raw path (without its leading slash and one trailing slash), each checked when found, and cut
     * out only when asked for: a document's path makes four strings (namespace, type, route kind and the rest).
     */
    private static final class Segments {

        private final String rawPath;
        private final int[] bounds; // start and end of each segment in rawPath
        private final int count;
        private final boolean escaped; // whether any segment has a % or +, so may decode to something else

        private Segments(String rawPath, int[] bounds, int count, boolean escaped) {
            this.rawPath = rawPath;
            this.bounds = bounds;
            this.count = count;
            this.escaped = escaped;
        }

        /** @throws HttpStatusException 404 without the prefix, 400 for an empty, {@code .} or {@code ..} segment */
        static Segments of(String rawPath) {
            if ( ! rawPath.startsWith(PREFIX))
                throw nothingAt(rawPath);
            int end = rawPath.endsWith("/") ? rawPath.length() - 1 : rawPath.length();
            int count = 1;
            boolean escaped = false;
            for (int i = 1; i < end; i++) {
                char c = rawPath.charAt(i);
                if (c == '/')
                    count++;
                else if (c == '%' || c == '+')
                    escaped = true;
            }
            int[] bounds = new int[2 * count];
            for (int segment = 0, start = 1; segment < count; segment++) {
                int stop = rawPath.indexOf('/', start);
                if (stop < 0 || stop > end)
                    stop = end;
                bounds[2 * segment] = start;
                bounds[2 * segment + 1] = stop;
                check(rawPath, start, stop, escaped);
                start = stop + 1;
            }
            return new Segments(rawPath, bounds, count, escaped);
        }

        private static void check(String rawPath, int start, int end, boolean escaped) {
            String segment = escaped && needsDecoding(rawPath, start, end) ? decode(rawPath.substring(start, end))
                                                                            : null;
            boolean bad = segment != null
                          ? segment.isEmpty() || segment.equals(".") || segment.equals("..")
                          : end == start || end - start == 1 && rawPath.charAt(start) == '.'
                            || end - start == 2 && rawPath.startsWith("..", start);
            if (bad)
                throw new HttpStatusException(HttpStatus.BAD_REQUEST_400,
                                              "path segments cannot be \"\", \".\", or \"..\"");
        }

        int count() {
            return count;
        }

        /** Whether the second segment is {@code v1}: the path starts with the prefix, so it is unless it goes on. */
        boolean isV1() {
            return bounds[3] - bounds[2] == 2;
        }

        /** Segment {@code index}, form-decoded. */
        String decoded(int index) {
            int start = bounds[2 * index], end = bounds[2 * index + 1];
            String raw = rawPath.substring(start, end);
            return escaped && needsDecoding(rawPath, start, end) ? decode(raw) : raw;
        }

        /** Segment {@code index}, form-decoded: {@code likely} itself if that is what it holds. */
        Optional<String> decodedLike(int index, Optional<String> likely) {
            return is(index, likely.get()) ? likely : Optional.of(decoded(index));
        }

        /** Whether segment {@code index}, form-decoded, is {@code value}; cuts out no string if it has no escapes. */
        boolean is(int index, String value) {
            int start = bounds[2 * index], end = bounds[2 * index + 1];
            if (escaped && needsDecoding(rawPath, start, end))
                return decoded(index).equals(value);
            return end - start == value.length() && rawPath.startsWith(value, start);
        }

        /** The decoded segments from {@code from} on, joined with {@code /}. */
        String joined(int from) {
            int start = bounds[2 * from], end = bounds[2 * count - 1];
            if ( ! escaped || ! needsDecoding(rawPath, start, end))
                return rawPath.substring(start, end);
            StringBuilder joined = new StringBuilder(end - start);
            for (int segment = from; segment < count; segment++)
                joined.append(segment > from ? "/" : "").append(decoded(segment));
            return joined.toString();
        }

        private static boolean needsDecoding(String rawPath, int start, int end) {
            for (int i = start; i < end; i++) {
                char c = rawPath.charAt(i);
                if (c == '%' || c == '+')
                    return true;
            }
            return false;
        }

    }

    private static String decode(String segment) {
        try {
            return URLDecoder.decode(segment, StandardCharsets.UTF_8);
        }
        catch (IllegalArgumentException e) {
            throw new HttpStatusException(HttpStatus.BAD_REQUEST_400, "Malformed path segment '" + segment + "': " + e.getMessage());
        }
    }

    private static long number(String value) {
        try {
            return Long.parseUnsignedLong(value);
        }
        catch (NumberFormatException e) {
            throw new HttpStatusException(HttpStatus.BAD_REQUEST_400, e.getMessage());
        }
    }

    private static String group(String value) {
        for (int i = 0; i < value.length(); ) {
            int codePoint = value.codePointAt(i);
            if ( ! isTextCharacter(codePoint))
                throw new HttpStatusException(HttpStatus.BAD_REQUEST_400,
                                              String.format("Illegal code point U%04X in group", codePoint));
            i += Character.charCount(codePoint);
        }
        return value;
    }

    /** Vespa's {@code Text.isTextCharacter}: no controls but TAB, LF, CR; no lone surrogates or non-characters. */
    private static boolean isTextCharacter(int codePoint) {
        if (codePoint < 0x80)
            return codePoint >= 0x20 || codePoint == '\t' || codePoint == '\n' || codePoint == '\r';
        if (codePoint >= Character.MIN_SURROGATE && codePoint <= Character.MAX_SURROGATE)
            return false;
        if (codePoint >= 0xFDD0 && codePoint <= 0xFDDF)
            return false;
        if ((codePoint & 0xFFFE) == 0xFFFE)
            return false;
        return codePoint < 0x10FFFE;
    }

}
