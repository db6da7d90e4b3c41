package io.sluice.container.document;

import io.sluice.container.HttpStatusException;
import org.eclipse.jetty.http.HttpStatus;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Decides whether a streamed visit is written as JSON lines (spec §1.4): only if {@code application/jsonl} is among
 * the media ranges with the highest quality; on a tie with others, JSON lines wins. Wildcards never select it.
 */
final class AcceptHeader {

    static final String JSONL = "application/jsonl";

    private AcceptHeader() { }

    /**
     * Whether {@code accept} (the joined {@code Accept} header values, or {@code null}) prefers JSON lines.
     *
     * @throws HttpStatusException 400 with Vespa's text if the header does not parse
     */
    static boolean prefersJsonLines(String accept) {
        if (accept == null || accept.isBlank())
            return false;
        double best = -1;
        List<String> bestTypes = new ArrayList<>();
        for (String range : accept.split(",")) {
            if (range.isBlank())
                continue;
            String[] parts = range.split(";");
            String type = parts[0].trim().toLowerCase(Locale.ROOT);
            int slash = type.indexOf('/');
            if (slash <= 0 || slash == type.length() - 1 || type.indexOf('/', slash + 1) >= 0 || type.contains(" "))
                throw unparseable();
            double quality = 1;
            for (int i = 1; i < parts.length; i++) {
                String parameter = parts[i].trim();
                int equals = parameter.indexOf('=');
                if (equals <= 0)
                    throw unparseable();
                if (parameter.substring(0, equals).trim().equalsIgnoreCase("q"))
                    quality = quality(parameter.substring(equals + 1).trim());
            }
            if (quality > best) {
                best = quality;
                bestTypes.clear();
            }
            if (quality == best)
                bestTypes.add(type);
        }
        return best > 0 && bestTypes.contains(JSONL);
    }

    private static double quality(String value) {
        try {
            double quality = Double.parseDouble(value);
            if (quality >= 0 && quality <= 1)
                return quality;
        }
        catch (NumberFormatException e) {
            // falls through to the error below
        }
        throw unparseable();
    }

    private static HttpStatusException unparseable() {
        return new HttpStatusException(HttpStatus.BAD_REQUEST_400,
                                       "The request contained an unparseable HTTP Accept header. "
                                       + "See: https://docs.vespa.ai/en/reference/api/document-v1.html#accept");
    }

}
