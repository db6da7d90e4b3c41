package io.sluice.document.schema;

import io.sluice.document.DocumentException;

/** A schema file that cannot be read as document types; the message starts with {@code file:line:column: }. */
public final class SchemaParseException extends DocumentException {

    private static final long serialVersionUID = 1L;

    private final String file;
    private final int line;
    private final int column;

    public SchemaParseException(String file, int line, int column, String message) {
        super(file + ":" + line + ":" + column + ": " + message);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    /** The name of the schema file, as given to the parser. */
    public String file() {
        return file;
    }

    /** 1-based line of the offending text. */
    public int line() {
        return line;
    }

    /** 1-based column (in characters) of the offending text. */
    public int column() {
        return column;
    }
}
