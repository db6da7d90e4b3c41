package io.sluice.document.schema;

import io.sluice.document.ImportedField;

import io.sluice.document.DocumentException;
import io.sluice.document.TensorType;
import io.sluice.document.schema.ParsedSchema.ArrayRef;
import io.sluice.document.schema.ParsedSchema.Located;
import io.sluice.document.schema.ParsedSchema.MapRef;
import io.sluice.document.schema.ParsedSchema.NamedRef;
import io.sluice.document.schema.ParsedSchema.ParsedField;
import io.sluice.document.schema.ParsedSchema.ParsedFieldSet;
import io.sluice.document.schema.ParsedSchema.ParsedStruct;
import io.sluice.document.schema.ParsedSchema.ReferenceRef;
import io.sluice.document.schema.ParsedSchema.TensorRef;
import io.sluice.document.schema.ParsedSchema.TypeRef;
import io.sluice.document.schema.ParsedSchema.WeightedSetRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads the document parts of one schema file: the schema name, its document block (inheritance, fields, structs)
 * and its field sets. Every other statement (indexing, rank profiles, summaries, ...) is skipped: up to the end of
 * its line, or past its balanced {@code { }} block when one starts on that line or the next.
 */
final class SchemaFileParser {

    private static final int MAX_TYPE_DEPTH = 32;

    private final String file;
    private final List<Token> tokens;
    private final Map<String, Integer> notModelled = new TreeMap<>(); // statements skipped, by their first word
    private int index;

    private SchemaFileParser(String file, String text) {
        this.file = file;
        this.tokens = SchemaLexer.tokenize(file, text);
    }

    static ParsedSchema parse(String file, String text) {
        return new SchemaFileParser(file, text).schema();
    }

    private ParsedSchema schema() {
        if (peek().is("document"))
            return documentOnly();
        Token keyword = next();
        if (!keyword.is("schema") && !keyword.is("search"))
            throw error(keyword, "Expected 'schema', got " + keyword.describe());
        Located name = name("schema name");
        List<Located> schemaInherits = List.of();
        if (peek().is("inherits")) {
            next();
            schemaInherits = nameList("inherited schema");
        }
        expectSymbol('{');
        Located document = null;
        List<Located> inherits = List.of();
        List<ParsedField> fields = new ArrayList<>();
        List<ParsedStruct> structs = new ArrayList<>();
        List<ParsedFieldSet> fieldSets = new ArrayList<>();
        Set<String> otherFields = new LinkedHashSet<>();
        List<ImportedField> importedFields = new ArrayList<>();
        while (!peek().isSymbol('}')) {
            Token token = peek();
            if (token.kind() == Token.Kind.END) throw error(token, "Expected '}' to close schema '" + name.name() + "'");
            if (token.is("document")) {
                if (document != null) throw error(token, "Schema '" + name.name() + "' has a second document");
                next();
                document = peek().kind() == Token.Kind.WORD && !peek().is("inherits") ? name("document name")
                                                                                     : at(token, name.name());
                if (peek().is("inherits")) {
                    next();
                    inherits = nameList("inherited document type");
                }
                documentBody(fields, structs);
            } else if (token.is("fieldset")) {
                fieldSets.add(fieldSet());
            } else {
                int start = index;
                skip();
                rememberOtherField(start, otherFields, importedFields);
                Token first = tokens.get(start);
                noteNotModelled(first.is("field") ? "field (outside the document)"
                                : first.is("import") ? "import field" : first.text());
            }
        }
        next();
        Token end = peek();
        if (end.kind() != Token.Kind.END) throw error(end, "Expected end of file, got " + end.describe());
        if (document == null) throw error(end, "Schema '" + name.name() + "' has no document");
        if (!document.name().equals(name.name()))
            throw new SchemaParseException(file, document.line(), document.column(),
                                           "Schema '" + name.name() + "' has document '" + document.name()
                                           + "': a schema's document must have the schema's name (Vespa requires it)");
        return new ParsedSchema(file, name.name(), document, inherits, fields, structs, fieldSets, otherFields,
                                importedFields, schemaInherits, Collections.unmodifiableMap(new TreeMap<>(notModelled)));
    }

    /** A file holding just {@code document NAME [inherits ...] { ... }}: a document type without a schema around it. */
    private ParsedSchema documentOnly() {
        next();
        Located document = name("document name");
        List<Located> inherits = List.of();
        if (peek().is("inherits")) {
            next();
            inherits = nameList("inherited document type");
        }
        List<ParsedField> fields = new ArrayList<>();
        List<ParsedStruct> structs = new ArrayList<>();
        documentBody(fields, structs);
        Token end = peek();
        if (end.kind() != Token.Kind.END) throw error(end, "Expected end of file, got " + end.describe());
        return new ParsedSchema(file, document.name(), document, inherits, fields, structs, List.of(), Set.of(), List.of(), List.of(),
                                Collections.unmodifiableMap(new TreeMap<>(notModelled)));
    }

    /**
     * Notes the names of fields declared outside the document (schema fields, imported fields), and what each
     * {@code import field reference.field as name} imports.
     */
    private void rememberOtherField(int start, Set<String> otherFields, List<ImportedField> importedFields) {
        Token first = tokens.get(start);
        if (first.is("field") && start + 1 < index) {
            otherFields.add(tokens.get(start + 1).text());
        } else if (first.is("import")) {
            // import field REF.FIELD as NAME { }: the lexer keeps "REF.FIELD" in one word
            if (start + 4 < index && tokens.get(start + 1).is("field") && tokens.get(start + 3).is("as")) {
                Token source = tokens.get(start + 2);
                String name = tokens.get(start + 4).text();
                int dot = source.text().indexOf('.');
                if (dot <= 0 || dot == source.text().length() - 1)
                    throw error(source, "Expected 'reference-field.field' after 'import field', got '"
                                        + source.text() + "'");
                otherFields.add(name);
                importedFields.add(new ImportedField(name, source.text().substring(0, dot),
                                                     source.text().substring(dot + 1)));
            } else {
                throw error(first, "Expected 'import field reference-field.field as name { }'");
            }
        }
    }

    private void documentBody(List<ParsedField> fields, List<ParsedStruct> structs) {
        expectSymbol('{');
        while (!peek().isSymbol('}')) {
            Token token = peek();
            if (token.kind() == Token.Kind.END) throw error(token, "Expected '}' to close the document");
            if (token.is("field")) fields.add(field());
            else if (token.is("struct")) structs.add(struct());
            else skipStatement();
        }
        next();
    }

    private ParsedStruct struct() {
        next();
        Located name = name("struct name");
        List<Located> inherits = List.of();
        if (peek().is("inherits")) {
            next();
            inherits = nameList("inherited struct");
        }
        expectSymbol('{');
        List<ParsedField> fields = new ArrayList<>();
        while (!peek().isSymbol('}')) {
            Token token = peek();
            if (token.kind() == Token.Kind.END) throw error(token, "Expected '}' to close struct '" + name.name() + "'");
            if (token.is("field")) fields.add(field());
            else skipStatement();
        }
        next();
        return new ParsedStruct(name, inherits, fields);
    }

    private ParsedField field() {
        next();
        Located name = name("field name");
        Token typeKeyword = next();
        if (!typeKeyword.is("type"))
            throw error(typeKeyword, "Expected 'type' after field '" + name.name() + "', got " + typeKeyword.describe());
        TypeRef type = type(0);
        boolean createIfNonExistent = false;
        boolean removeIfZero = false;
        if (peek().isSymbol('{')) {
            next();
            while (!peek().isSymbol('}')) {
                Token token = peek();
                if (token.kind() == Token.Kind.END)
                    throw error(token, "Expected '}' to close field '" + name.name() + "'");
                if (token.is("weightedset")) {
                    int start = index;
                    skip(); // read below
                    for (int i = start; i < index; i++) {
                        createIfNonExistent |= tokens.get(i).is("create-if-nonexistent");
                        removeIfZero |= tokens.get(i).is("remove-if-zero");
                    }
                } else {
                    skipStatement();
                }
            }
            next();
        }
        return new ParsedField(name, type, createIfNonExistent, removeIfZero);
    }

    private TypeRef type(int depth) {
        Token token = next();
        if (token.kind() != Token.Kind.WORD) throw error(token, "Expected a type, got " + token.describe());
        if (depth > MAX_TYPE_DEPTH) throw error(token, "Type is nested too deeply");
        Located where = at(token, token.text());
        switch (token.text()) {
            case "array": {
                expectSymbol('<');
                TypeRef element = type(depth + 1);
                expectSymbol('>');
                return new ArrayRef(where, element);
            }
            case "weightedset": {
                expectSymbol('<');
                TypeRef key = type(depth + 1);
                expectSymbol('>');
                return new WeightedSetRef(where, key);
            }
            case "map": {
                expectSymbol('<');
                TypeRef key = type(depth + 1);
                expectSymbol(',');
                TypeRef value = type(depth + 1);
                expectSymbol('>');
                return new MapRef(where, key, value);
            }
            case "reference": {
                expectSymbol('<');
                Located target = name("referenced document type");
                expectSymbol('>');
                return new ReferenceRef(where, target);
            }
            case "tensor":
                return new TensorRef(where, tensorType(token));
            case "annotationreference":
                throw error(token, "Annotation references are not supported");
            default:
                if (!isIdentifier(token.text())) throw error(token, "Expected a type, got " + token.describe());
                return new NamedRef(where);
        }
    }

    /** Reads {@code [<cell>](dims)} after the word {@code tensor} and parses the whole spec. */
    private TensorType tensorType(Token start) {
        StringBuilder spec = new StringBuilder("tensor");
        if (peek().isSymbol('<')) {
            for (int i = 0; i < 3; i++) spec.append(next().text());
        }
        Token open = peek();
        if (!open.isSymbol('(')) throw error(open, "Expected '(' in tensor type, got " + open.describe());
        while (true) {
            Token token = next();
            if (token.kind() == Token.Kind.END || token.kind() == Token.Kind.STRING)
                throw error(token, "Expected ')' to close tensor type, got " + token.describe());
            spec.append(token.text());
            if (token.isSymbol(')')) break;
        }
        try {
            return TensorType.parse(spec.toString());
        } catch (DocumentException e) {
            throw error(start, e.getMessage());
        }
    }

    private ParsedFieldSet fieldSet() {
        next();
        Located name = name("field set name");
        expectSymbol('{');
        List<Located> fields = new ArrayList<>();
        while (!peek().isSymbol('}')) {
            Token token = peek();
            if (token.kind() == Token.Kind.END) throw error(token, "Expected '}' to close field set '" + name.name() + "'");
            if (token.is("fields")) {
                next();
                expectSymbol(':');
                fields.addAll(nameList("field name"));
            } else {
                skipStatement();
            }
        }
        next();
        return new ParsedFieldSet(name, fields);
    }

    /** Skips one statement we do not model ({@link #skip}), and notes it by its first word. */
    private void skipStatement() {
        Token first = peek();
        skip();
        noteNotModelled(first.kind() == Token.Kind.WORD ? first.text() : "{ ... } block");
    }

    private void noteNotModelled(String statement) {
        notModelled.merge(statement, 1, Integer::sum);
    }

    /**
     * Skips one statement: to the end of its line, including any balanced brace blocks opened on it (which may span
     * lines), or a block that opens at the start of the next line. Stops before a '}' that closes the enclosing block.
     * Braces inside parentheses are not blocks: {@code field e type tensor<float>(p{}, x[8]) { ... }} is one statement.
     */
    private void skip() {
        Token first = next();
        if (first.isSymbol('{')) {
            skipBlock(first);
            return;
        }
        int parentheses = first.isSymbol('(') ? 1 : 0;
        int bracesInParentheses = 0;
        while (true) {
            Token token = peek();
            if (token.kind() == Token.Kind.END) return;
            if (token.isSymbol('}') && bracesInParentheses == 0) return; // unbalanced '(': let the block end anyway
            if (parentheses > 0) {
                if (token.isSymbol('(')) parentheses++;
                else if (token.isSymbol(')')) parentheses--;
                else if (token.isSymbol('{')) bracesInParentheses++;
                else if (token.isSymbol('}')) bracesInParentheses--;
                next();
                continue;
            }
            if (token.isSymbol('{')) {
                next();
                skipBlock(token);
                return;
            }
            if (token.startsLine()) return;
            if (token.isSymbol('(')) parentheses++;
            next();
        }
    }

    /** Skips past the '}' matching the already consumed {@code open}. */
    private void skipBlock(Token open) {
        int depth = 1;
        while (depth > 0) {
            Token token = next();
            if (token.kind() == Token.Kind.END) throw error(open, "Unbalanced '{': no matching '}'");
            if (token.isSymbol('{')) depth++;
            else if (token.isSymbol('}')) depth--;
        }
    }

    private List<Located> nameList(String what) {
        List<Located> names = new ArrayList<>();
        names.add(name(what));
        while (peek().isSymbol(',')) {
            next();
            names.add(name(what));
        }
        return names;
    }

    private Located name(String what) {
        Token token = next();
        if (token.kind() != Token.Kind.WORD || !isIdentifier(token.text()))
            throw error(token, "Expected " + what + ", got " + token.describe());
        return at(token, token.text());
    }

    private void expectSymbol(char symbol) {
        Token token = next();
        if (!token.isSymbol(symbol)) throw error(token, "Expected '" + symbol + "', got " + token.describe());
    }

    private Token peek() {
        return tokens.get(index);
    }

    private Token next() {
        Token token = tokens.get(index);
        if (index < tokens.size() - 1) index++;
        return token;
    }

    private static Located at(Token token, String name) {
        return new Located(name, token.line(), token.column());
    }

    private SchemaParseException error(Token token, String message) {
        return new SchemaParseException(file, token.line(), token.column(), message);
    }

    static boolean isIdentifier(String text) {
        if (text.isEmpty()) return false;
        char first = text.charAt(0);
        if (!(Character.isLetter(first) || first == '_')) return false;
        for (int i = 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_')) return false;
        }
        return true;
    }
}
