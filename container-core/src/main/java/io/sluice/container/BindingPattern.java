package io.sluice.container;

import java.util.Comparator;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A handler binding such as {@code http://*&#47;document/v1/*}: {@code scheme://host[:port]/path} where {@code *}
 * matches any run of characters. As in Vespa, {@code https} is matched as {@code http}, and a more specific pattern
 * wins: an explicit port beats none, then a literal host beats a glob, then the longer literal path prefix wins.
 *
 * @param pattern the pattern as written
 * @param host    the host glob
 * @param port    the port, empty if the pattern has none or {@code *}
 * @param path    the path glob, starting with {@code /}
 */
public record BindingPattern(String pattern, String host, OptionalInt port, String path) {

    private static final Pattern syntax = Pattern.compile("([a-z*]+)://([^/:]+)(?::(\\d+|\\*))?(/.*)");

    /** Most specific first. */
    public static final Comparator<BindingPattern> SPECIFIC_FIRST =
            Comparator.comparing((BindingPattern b) -> b.port().isEmpty())
                      .thenComparing(b -> b.host().contains("*"))
                      .thenComparing(b -> -literalPrefixLength(b.path()))
                      .thenComparing(b -> -b.path().length());

    public BindingPattern {
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(port, "port");
        Objects.requireNonNull(path, "path");
    }

    /**
     * Parses {@code scheme://host[:port]/path}.
     *
     * @throws IllegalArgumentException naming the pattern if it is not of that form or the scheme is not http(s)
     */
    public static BindingPattern parse(String pattern) {
        Matcher matcher = syntax.matcher(pattern);
        if ( ! matcher.matches())
            throw new IllegalArgumentException("Binding '" + pattern + "' is not of the form scheme://host[:port]/path");
        String scheme = matcher.group(1);
        if ( ! scheme.equals("http") && ! scheme.equals("https") && ! scheme.equals("*"))
            throw new IllegalArgumentException("Binding '" + pattern + "' has scheme '" + scheme + "'; expected http or https");
        String port = matcher.group(3);
        return new BindingPattern(pattern, matcher.group(2),
                                  port == null || port.equals("*") ? OptionalInt.empty() : OptionalInt.of(Integer.parseInt(port)),
                                  matcher.group(4));
    }

    /** Whether this binds requests whatever their host. */
    public boolean anyHost() {
        return host.equals("*");
    }

    /**
     * Whether a request to {@code host}, on local port {@code port}, for {@code path} is bound by this; {@code host} may
     * be null when {@link #anyHost()}.
     */
    public boolean matches(String host, int port, String path) {
        if (this.port.isPresent() && this.port.getAsInt() != port)
            return false;
        return (anyHost() || glob(this.host, host)) && glob(this.path, path);
    }

    /** Whether {@code text} matches {@code glob}, where {@code *} matches any run of characters. */
    static boolean glob(String glob, String text) {
        int g = 0, t = 0, star = -1, resume = 0;
        while (t < text.length()) {
            if (g < glob.length() && glob.charAt(g) == '*') {
                if (g == glob.length() - 1)
                    return true; // a final star takes whatever is left
                star = g++;
                resume = t;
            }
            else if (g < glob.length() && glob.charAt(g) == text.charAt(t)) {
                g++;
                t++;
            }
            else if (star >= 0) {
                g = star + 1;
                t = ++resume;
            }
            else {
                return false;
            }
        }
        while (g < glob.length() && glob.charAt(g) == '*')
            g++;
        return g == glob.length();
    }

    private static int literalPrefixLength(String glob) {
        int star = glob.indexOf('*');
        return star < 0 ? glob.length() : star;
    }

    @Override
    public String toString() {
        return pattern;
    }

}
