package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import io.sluice.document.DocumentId;
import org.eclipse.jetty.http.HttpStatus;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
        List<String> segments = segments(rawPath);
        if (segments.size() < 2 || ! segments.get(0).equals("document") || ! segments.get(1).equals("v1"))
            throw nothingAt(rawPath);
        List<String> rest = segments.subList(2, segments.size());
        if (rest.isEmpty())
            return new DocumentPath(Route.ROOT, rawPath, Optional.empty(), Optional.empty(), Optional.empty(),
                                    OptionalLong.empty(), Optional.empty());
        if (rest.size() < 3)
            throw nothingAt(rawPath);
        Optional<String> namespace = Optional.of(rest.get(0));
        Optional<String> type = Optional.of(rest.get(1));
        String kind = rest.get(2);
        List<String> tail = rest.subList(3, rest.size());
        switch (kind) {
            case "docid":
                if (tail.isEmpty())
                    return new DocumentPath(Route.DOCID_SELECTION, rawPath, namespace, type, Optional.empty(),
                                            OptionalLong.empty(), Optional.empty());
                return new DocumentPath(Route.DOCID_DOCUMENT, rawPath, namespace, type, Optional.empty(),
                                        OptionalLong.empty(), Optional.of(String.join("/", tail)));
            case "group":
                if (tail.isEmpty())
                    throw nothingAt(rawPath);
                Optional<String> group = Optional.of(group(tail.get(0)));
                return tail.size() == 1
                       ? new DocumentPath(Route.GROUP_SELECTION, rawPath, namespace, type, group, OptionalLong.empty(),
                                          Optional.empty())
                       : new DocumentPath(Route.GROUP_DOCUMENT, rawPath, namespace, type, group, OptionalLong.empty(),
                                          Optional.of(String.join("/", tail.subList(1, tail.size()))));
            case "number":
                if (tail.isEmpty())
                    throw nothingAt(rawPath);
                OptionalLong number = OptionalLong.of(number(tail.get(0)));
                return tail.size() == 1
                       ? new DocumentPath(Route.NUMBER_SELECTION, rawPath, namespace, type, Optional.empty(), number,
                                          Optional.empty())
                       : new DocumentPath(Route.NUMBER_DOCUMENT, rawPath, namespace, type, Optional.empty(), number,
                                          Optional.of(String.join("/", tail.subList(1, tail.size()))));
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
        String keyValues = group.map(g -> "g=" + g)
                                .orElseGet(() -> number.isPresent() ? "n=" + Long.toUnsignedString(number.getAsLong()) : "");
        String id = "id:" + namespace.get() + ":" + documentType.get() + ":" + keyValues + ":" + userSpecific.get();
        return DocumentId.of(id); // a DocumentException is a 400 (Failures)
    }

    /** The 404 for a path no route matches, listing the path specifications. */
    static HttpStatusException nothingAt(String rawPath) {
        return new HttpStatusException(HttpStatus.NOT_FOUND_404,
                                       "Nothing at '" + rawPath + "'. Available paths are:\n"
                                       + Arrays.stream(Route.values()).map(Route::spec).collect(Collectors.joining("\n")));
    }

    private static List<String> segments(String rawPath) {
        String path = rawPath.startsWith("/") ? rawPath.substring(1) : rawPath;
        if (path.endsWith("/"))
            path = path.substring(0, path.length() - 1);
        if ( ! rawPath.startsWith(PREFIX))
            throw nothingAt(rawPath);
        List<String> segments = new ArrayList<>(8);
        for (int start = 0, end; start <= path.length(); start = end + 1) {
            end = path.indexOf('/', start);
            if (end < 0)
                end = path.length();
            String segment = decode(path.substring(start, end));
            if (segment.isEmpty() || segment.equals(".") || segment.equals(".."))
                throw new HttpStatusException(HttpStatus.BAD_REQUEST_400, "path segments cannot be \"\", \".\", or \"..\"");
            segments.add(segment);
        }
        return segments;
    }

    private static String decode(String segment) {
        if (segment.indexOf('%') < 0 && segment.indexOf('+') < 0)
            return segment; // nothing to decode: the common case, without the decoder's scan and copy
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
