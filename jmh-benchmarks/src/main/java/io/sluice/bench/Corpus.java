package io.sluice.bench;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.json.DocumentJson;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.schema.SchemaParser;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Random;

/**
 * Generated benchmark documents of one small schema ({@code article}: a title, a year, a score, tags and a body of
 * words), the same bytes for the same number and size on every run. Sizes are of the put body
 * {@code {"fields":{...}}} as a feed client sends it.
 */
final class Corpus {

    static final String NAMESPACE = "bench";
    static final String SCHEMA = """
            schema article {
                document article {
                    field title type string { indexing: summary | index }
                    field year type int { indexing: summary | attribute }
                    field score type double { indexing: summary | attribute }
                    field tags type array<string> { indexing: summary | attribute }
                    field body type string { indexing: summary | index }
                }
            }
            """;
    static final DocumentTypes TYPES = SchemaParser.parse("article.sd", SCHEMA);
    static final DocumentType TYPE = TYPES.get("article");

    private static final String[] WORDS = ("the of and to in is that for it as was with be by on not this are or from "
                                           + "at which but have an they you were her she there been one all would "
                                           + "their we him has when who will more no if out so said what up its about "
                                           + "into than them can only other new some could time these two may then do "
                                           + "first any my now such like our over even most made after also did many "
                                           + "before must through back years where much your way well store document "
                                           + "bucket slice visit feed cluster schema field tensor river sluice gate "
                                           + "water flow stream channel lock dam").split(" ");
    private static final String BODY_FIELD_OVERHEAD = ",\"body\":\"\"";

    private Corpus() {
    }

    /** Document id {@code n}: {@code id:bench:article::<n>}. */
    static DocumentId id(long n) {
        return DocumentId.of("id:" + NAMESPACE + ":article::" + n);
    }

    /** The put body of document {@code n}, {@code {"fields":{...}}}, of exactly {@code bytes} bytes (at least ~200). */
    static byte[] putBody(long n, int bytes) {
        Random random = new Random(n * 31 + bytes);
        String title = "Article " + n + " on " + word(random) + " and " + word(random);
        int year = 1950 + random.nextInt(76);
        double score = Math.round(random.nextDouble() * 1e6) / 1e3;
        String[] tags = new String[1 + random.nextInt(5)];
        for (int i = 0; i < tags.length; i++) tags[i] = word(random);
        int withoutBody = fields(title, year, score, tags, null).length + BODY_FIELD_OVERHEAD.length();
        if (withoutBody >= bytes) throw new IllegalArgumentException("Documents need at least " + withoutBody + " bytes, not " + bytes);
        return fields(title, year, score, tags, words(random, bytes - withoutBody));
    }

    /** Document {@code n} of about {@code bytes} as a put body, as the codec reads it. */
    static Document document(long n, int bytes) {
        return DocumentJsonReader.strict(TYPES).readPut(id(n), putBody(n, bytes)).document();
    }

    /**
     * An update body of exactly {@code bytes} bytes (at least ~100): assigns a new body, increments the year, adds a
     * tag and assigns the title.
     */
    static byte[] updateBody(long n, int bytes) {
        Random random = new Random(n * 17 + bytes);
        String title = "Updated article " + n;
        int withoutBody = update(title, "").length;
        if (withoutBody >= bytes) throw new IllegalArgumentException("Updates need at least " + withoutBody + " bytes, not " + bytes);
        return update(title, words(random, bytes - withoutBody));
    }

    private static byte[] fields(String title, int year, double score, String[] tags, String body) {
        return json(generator -> {
            generator.writeStartObject();
            generator.writeObjectFieldStart("fields");
            generator.writeStringField("title", title);
            generator.writeNumberField("year", year);
            generator.writeNumberField("score", score);
            generator.writeArrayFieldStart("tags");
            for (String tag : tags) generator.writeString(tag);
            generator.writeEndArray();
            if (body != null) generator.writeStringField("body", body);
            generator.writeEndObject();
            generator.writeEndObject();
        });
    }

    private static byte[] update(String title, String body) {
        return json(generator -> {
            generator.writeStartObject();
            generator.writeObjectFieldStart("fields");
            generator.writeObjectFieldStart("title");
            generator.writeStringField("assign", title);
            generator.writeEndObject();
            generator.writeObjectFieldStart("year");
            generator.writeNumberField("increment", 1);
            generator.writeEndObject();
            generator.writeObjectFieldStart("tags");
            generator.writeArrayFieldStart("add");
            generator.writeString("updated");
            generator.writeEndArray();
            generator.writeEndObject();
            generator.writeObjectFieldStart("body");
            generator.writeStringField("assign", body);
            generator.writeEndObject();
            generator.writeEndObject();
            generator.writeEndObject();
        });
    }

    /** Words separated by spaces, exactly {@code chars} ASCII characters (so as many bytes in JSON). */
    private static String words(Random random, int chars) {
        StringBuilder text = new StringBuilder(chars + 16);
        while (text.length() < chars) text.append(word(random)).append(' ');
        text.setLength(chars);
        return text.toString();
    }

    private static String word(Random random) {
        return WORDS[random.nextInt(WORDS.length)];
    }

    private interface JsonWriting {
        void write(JsonGenerator generator) throws IOException;
    }

    private static byte[] json(JsonWriting writing) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator generator = DocumentJson.factory().createGenerator(out)) {
            writing.write(generator);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

}
