package io.sluice.document.select;

/** Renders strings as selection-language string literals. */
final class Quoting {

    private Quoting() {
    }

    /** A double-quoted literal. */
    static String quote(String value) {
        return quoteDouble(value);
    }

    static String quoteDouble(String value) {
        StringBuilder out = new StringBuilder(value.length() + 2).append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                case '\f': out.append("\\f"); break;
                default:
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
            }
        }
        return out.append('"').toString();
    }

}
