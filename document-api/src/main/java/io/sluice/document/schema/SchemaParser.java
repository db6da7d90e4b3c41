package io.sluice.document.schema;

import io.sluice.document.DocumentTypes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads the document parts of Vespa schema files ({@code schemas/*.sd}) into {@link DocumentTypes}: the document
 * block with its inheritance, fields and structs, and the schema's field sets. Everything else in a schema
 * (indexing, summaries, rank profiles, ...) is skipped, and said so per file to a warning consumer where one is given.
 * Types may refer to structs and documents defined later or in other files of the same call.
 *
 * <p>Every method throws {@link SchemaParseException} naming file, line and column when a file cannot be read as
 * document types.
 */
public final class SchemaParser {

    private SchemaParser() {
    }

    /** Parses one schema file's text; {@code fileName} is only used in error messages. */
    public static DocumentTypes parse(String fileName, String text) {
        return parse(Map.of(fileName, text));
    }

    /** Parses schema texts by file name; types may refer across them. */
    public static DocumentTypes parse(Map<String, String> textsByFileName) {
        return parse(textsByFileName, warning -> { });
    }

    /**
     * Parses schema texts by file name, and gives {@code warnings} one line per file that has statements Sluice does
     * not model, counted by kind.
     */
    public static DocumentTypes parse(Map<String, String> textsByFileName, Consumer<String> warnings) {
        List<ParsedSchema> schemas = new ArrayList<>();
        for (Map.Entry<String, String> file : textsByFileName.entrySet())
            schemas.add(SchemaFileParser.parse(file.getKey(), file.getValue()));
        DocumentTypes types = SchemaResolver.resolve(schemas);
        for (ParsedSchema schema : schemas)
            if ( ! schema.notModelled().isEmpty())
                warnings.accept(notModelled(schema));
        return types;
    }

    private static String notModelled(ParsedSchema schema) {
        String counted = schema.notModelled().entrySet().stream()
                               .map(entry -> entry.getKey() + (entry.getValue() > 1 ? " x" + entry.getValue() : ""))
                               .collect(Collectors.joining(", "));
        return schema.file() + ": skipped, as Sluice runs no indexing, ranking or summaries and stores and returns "
               + "documents as fed: " + counted
               + (schema.notModelled().containsKey("import field") ? "; imported fields are not stored: selections and conditions read them from the parent document" : "");
    }

    /** Reads and parses these files (UTF-8). Throws {@link UncheckedIOException} if one cannot be read. */
    public static DocumentTypes parseFiles(Collection<Path> files) {
        return parseFiles(files, warning -> { });
    }

    /** As {@link #parseFiles(Collection)}, with warnings as {@link #parse(Map, Consumer)} gives them. */
    public static DocumentTypes parseFiles(Collection<Path> files, Consumer<String> warnings) {
        Map<String, String> texts = new LinkedHashMap<>();
        for (Path file : files) {
            try {
                texts.put(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("Could not read schema file " + file, e);
            }
        }
        return parse(texts, warnings);
    }

    /** Parses every {@code *.sd} file in {@code directory} (not recursive), in file name order. */
    public static DocumentTypes parseDirectory(Path directory) {
        try (Stream<Path> entries = Files.list(directory)) {
            return parseFiles(entries.filter(path -> path.getFileName().toString().endsWith(".sd"))
                                     .sorted()
                                     .collect(Collectors.toList()));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not list schema directory " + directory, e);
        }
    }
}
