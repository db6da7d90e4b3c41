package io.sluice.document.json;

import static io.sluice.document.json.TestTypes.ID;
import static io.sluice.document.json.TestTypes.TYPES;
import static io.sluice.document.json.TestTypes.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import io.sluice.document.Document;
import io.sluice.document.Field;
import io.sluice.document.FieldValue;
import io.sluice.document.StringValue;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** {@link ParsedPut#fieldsJson()}: given only when the body's fields are exactly what the writer writes. */
class WrittenFieldsJsonTest {

    private static final DocumentJsonReader STRICT = DocumentJsonReader.strict(TYPES);
    /** The fields of kinds the reader can tell are as written. */
    private static final Set<String> SIMPLE = Set.of("s", "i", "l", "b", "flag", "f", "d", "arr", "ints");

    private static Optional<String> fieldsJson(String body) {
        return STRICT.readPut(ID, utf8(body)).fieldsJson().map(FieldsJson::toString);
    }

    private static String written(Document document) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonGenerator generator = DocumentJson.factory().createGenerator(out)) {
            DocumentJsonWriter.create().writeFields(generator, document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"s\":\"Article 0 on it\",\"i\":2016,\"l\":-9223372036854775808,\"b\":-128,\"flag\":true,\"f\":0.1,"
            + "\"d\":955.532,\"arr\":[\"than\",\"\",\"new\"],\"ints\":[0,-1,2147483647]}",
            "{\"flag\":false,\"d\":-0.0}",
            "{\"d\":1.0E300}",
            "{\"s\":\"a/b \u007f~\"}", // DEL and / are written as they are
            "{}"})
    void fieldsAsTheWriterWritesThem_areGiven_asTheyAreInTheBody(String fields) {
        String body = "{\"put\":\"" + ID + "\",\"fields\":" + fields + ",\"create\":true}";
        ParsedPut put = STRICT.readPut(ID, utf8(body));
        assertEquals(Optional.of(fields), put.fieldsJson().map(FieldsJson::toString));
        assertEquals(fields, written(put.document()));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"s\": \"a\"}", "{ \"s\":\"a\"}", "{\"s\":\"a\" }", "{\"arr\":[\"a\", \"b\"]}", "{\"s\":\"a\",\n\"i\":1}",
            "{\"s\":\"a\\u0062\"}", "{\"s\":\"\\/\"}", "{\"s\":\"\\\"\"}", "{\"s\":\"a\\nb\"}", "{\"\\u0073\":\"a\"}",
            "{\"s\":\"æ\"}", "{\"s\":\"\uD83D\uDE00\"}",                      // written the same, but not counted
            "{\"i\":1,\"s\":\"a\"}", "{\"s\":\"a\",\"s\":\"b\"}",           // order, repetition
            "{\"s\":\"a\",\"i\":null}", "{\"s\":\"\"}", "{\"s\":\"a\",\"arr\":[]}", // left out by the writer
            "{\"i\":\"1\"}", "{\"flag\":\"true\"}", "{\"ints\":[\"1\"]}", "{\"i\":-0}", "{\"b\":\"-1\"}",
            "{\"s\":12,  \"i\":1}", "{\"arr\":[12,  \"a\"]}", "{\"s\":true,  \"i\":1}", // short, padded to length
            "{\"d\":1e2}", "{\"d\":1.50}", "{\"d\":100}", "{\"d\":\"1.5\"}", "{\"f\":0.10}", "{\"d\":1E300}",
            "{\"m\":{\"a\":1}}", "{\"p\":{\"name\":\"a\"}}", "{\"uri\":\"http://x\"}", "{\"ws\":{\"a\":1}}",
            "{\"raw\":\"AAE=\"}", "{\"pos\":\"N1;E2\"}", "{\"ref\":\"id:ns:other::1\"}", "{\"sparse\":{\"a\":1.0}}"})
    void fieldsWrittenOtherwise_orOfOtherKinds_areNotGiven(String fields) {
        assertEquals(Optional.empty(), fieldsJson("{\"fields\":" + fields + "}"), fields);
    }

    @Test
    void twoFieldsObjects_areNotGiven() {
        assertEquals(Optional.empty(), fieldsJson("{\"fields\":{\"s\":\"a\"},\"fields\":{\"i\":1}}"));
    }

    @Test
    void ignoredUnknownFields_areNotGiven() {
        ParsedPut put = DocumentJsonReader.lenient(TYPES).readPut(ID, utf8("{\"fields\":{\"s\":\"a\",\"zz\":1}}"));
        assertTrue(put.hasIgnoredFields());
        assertEquals(Optional.empty(), put.fieldsJson());
    }

    @Test
    void theStoredReader_neverGivesTheFields() {
        byte[] fields = utf8("{\"s\":\"a\",\"i\":1}");
        assertEquals(Optional.of("{\"s\":\"a\",\"i\":1}"),
                     STRICT.readFields(ID, fields).fieldsJson().map(FieldsJson::toString));
        assertEquals(Optional.empty(), DocumentJsonReader.stored(TYPES).readFields(ID, fields).fieldsJson());
    }

    @Test
    void readFields_givesTheObjectAsWell() {
        byte[] json = utf8("xx{\"s\":\"a\",\"i\":1}yy");
        assertEquals(Optional.of("{\"s\":\"a\",\"i\":1}"),
                     STRICT.readFields(ID, json, 2, json.length - 4).fieldsJson().map(FieldsJson::toString));
    }

    @Test
    void bodiesWithAByteOrderMark_orInUtf16_giveTheFieldsOnlyAsTheyAre() {
        byte[] marked = utf8("\uFEFF{\"fields\":{\"s\":\"a\"}}");
        ParsedPut put = STRICT.readPut(ID, marked);
        assertEquals(Map.of("s", new StringValue("a")), put.document().fields());
        put.fieldsJson().ifPresent(fields -> assertEquals("{\"s\":\"a\"}", fields.toString()));

        byte[] utf16 = "{\"fields\":{\"s\":\"a\"}}".getBytes(StandardCharsets.UTF_16LE);
        assertEquals(Optional.empty(), STRICT.readPut(ID, utf16).fieldsJson());
    }

    /** Any random document, written in many ways: whenever the reader gives the fields, they are the writer's. */
    @Test
    void randomDocumentsWrittenInManyWays_giveFieldsOnlyWhenTheyAreTheWritersText() throws IOException {
        RandomDocuments random = new RandomDocuments(20261128);
        int given = 0;
        List<Document> documents = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            Document document = random.document(TYPES.get("all"), ID);
            documents.add(document);
            documents.add(document.withOnly(SIMPLE::contains));
        }
        for (Document document : documents) {
            String canonical = written(document);
            for (String variant : variants(document)) {
                Document read;
                Optional<FieldsJson> fields;
                try {
                    ParsedPut put = STRICT.readFields(ID, utf8(variant));
                    read = put.document();
                    fields = put.fieldsJson();
                } catch (DocumentJsonException e) {
                    continue; // a variant the reader does not take, such as a number written as a string for a tensor
                }
                if (fields.isPresent()) {
                    given++;
                    assertEquals(written(read), fields.get().toString(), variant);
                    assertEquals(canonical, fields.get().toString(), variant);
                }
            }
        }
        assertTrue(given > 100, "too few inputs were given as written: " + given);
    }

    /** The document's fields written as the writer does, and with whitespace, escapes, quoted numbers or reordered. */
    private static List<String> variants(Document document) throws IOException {
        List<String> variants = new ArrayList<>();
        variants.add(written(document));
        variants.add(write(document, false, false, false, true));
        variants.add(write(document, true, false, false, false));
        variants.add(write(document, false, true, false, false));
        variants.add(write(document, false, false, true, false));
        return variants;
    }

    private static String write(Document document, boolean escapeNonAscii, boolean numbersAsStrings, boolean reversed,
                                boolean pretty) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        DocumentJsonWriter writer = DocumentJsonWriter.create();
        try (JsonGenerator generator = DocumentJson.factory().createGenerator(out)) {
            if (escapeNonAscii) generator.enable(JsonWriteFeature.ESCAPE_NON_ASCII.mappedFeature());
            if (numbersAsStrings) generator.enable(JsonWriteFeature.WRITE_NUMBERS_AS_STRINGS.mappedFeature());
            if (pretty) generator.useDefaultPrettyPrinter();
            generator.writeStartObject();
            List<Field> fields = new ArrayList<>(document.type().fields());
            if (reversed) Collections.reverse(fields);
            Map<String, FieldValue> values = document.fields();
            for (Field field : fields) {
                FieldValue value = values.get(field.name());
                if (value == null) continue;
                generator.writeFieldName(field.name());
                writer.writeValue(generator, field.type(), value);
            }
            generator.writeEndObject();
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
