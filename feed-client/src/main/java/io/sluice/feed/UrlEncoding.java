package io.sluice.feed;

import java.nio.charset.StandardCharsets;

/** Percent-encoding of path segments and query values: everything but RFC 3986 unreserved characters. */
final class UrlEncoding {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private UrlEncoding() { }

    static StringBuilder append(StringBuilder out, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (unreserved(c)) {
                out.append(c);
                continue;
            }
            for (byte b : value.substring(i).getBytes(StandardCharsets.UTF_8)) { // rare: encode the rest in one go
                char d = (char) (b & 0xff);
                if (unreserved(d)) out.append(d);
                else out.append('%').append(HEX[(b >> 4) & 0xf]).append(HEX[b & 0xf]);
            }
            break;
        }
        return out;
    }

    static String encode(String value) { return append(new StringBuilder(value.length() + 8), value).toString(); }

    private static boolean unreserved(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~';
    }

}
