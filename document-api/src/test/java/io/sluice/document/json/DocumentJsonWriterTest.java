package io.sluice.document.json;

import static io.sluice.document.json.TestTypes.ID;
import static io.sluice.document.json.TestTypes.TYPES;
import static io.sluice.document.json.TestTypes.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.document.ArrayValue;
import io.sluice.document.Document;
import io.sluice.document.StringValue;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class DocumentJsonWriterTest {

    private static Document document(String fields) {
        return DocumentJsonReader.strict(TYPES).readFields(ID, utf8(fields)).document();
    }

    private static String fields(Document document, String format) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = DocumentJson.factory().createGenerator(out)) {
            DocumentJsonWriter.of(TensorFormat.fromParameter(format)).writeFields(generator, document);
        }
        return out.toString();
    }

    @Test
    void toJson_writesIdAndFieldsInDeclarationOrder() {
        Document document = document("{\"i\":1,\"s\":\"a\"}");
        assertEquals("{\"id\":\"id:ns:all::1\",\"fields\":{\"s\":\"a\",\"i\":1}}",
                     new String(DocumentJsonWriter.create().toJson(document), StandardCharsets.UTF_8));
    }

    @Test
    void writePut_usesPutKey() throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = DocumentJson.factory().createGenerator(out)) {
            DocumentJsonWriter.create().writePut(generator, document("{\"s\":\"a\"}"));
        }
        assertEquals("{\"put\":\"id:ns:all::1\",\"fields\":{\"s\":\"a\"}}", out.toString());
    }

    @Test
    void emptyDocument_writesEmptyFields() throws IOException {
        assertEquals("{}", fields(Document.of(TYPES.get("all"), ID), "short"));
    }

    @Test
    void emptyStructFields_areOmitted() throws IOException {
        Document document = document("{\"p\":{\"name\":\"\",\"age\":1}}");
        assertEquals("{\"p\":{\"age\":1}}", fields(document, "short"));
    }

    @Test
    void emptyValueSetProgrammatically_isNotWritten() throws IOException {
        Document document = Document.of(TYPES.get("all"), ID).with("arr", ArrayValue.EMPTY).with("s", new StringValue(""));
        assertEquals("{}", fields(document, "short"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "short       | {\"dense\":{\"type\":\"tensor<float>(x[3])\",\"values\":[1.0,2.0,3.0]}}",
            "short-value | {\"dense\":[1.0,2.0,3.0]}",
            "long        | {\"dense\":{\"type\":\"tensor<float>(x[3])\",\"cells\":[{\"address\":{\"x\":\"0\"},\"value\":1.0},{\"address\":{\"x\":\"1\"},\"value\":2.0},{\"address\":{\"x\":\"2\"},\"value\":3.0}]}}",
            "long-value  | {\"dense\":[{\"address\":{\"x\":\"0\"},\"value\":1.0},{\"address\":{\"x\":\"1\"},\"value\":2.0},{\"address\":{\"x\":\"2\"},\"value\":3.0}]}",
            "hex         | {\"dense\":{\"type\":\"tensor<float>(x[3])\",\"values\":\"3F8000004000000040400000\"}}",
            "hex-value   | {\"dense\":\"3F8000004000000040400000\"}"})
    void denseTensor_inEveryFormat(String format, String expected) throws IOException {
        assertEquals(expected, fields(document("{\"dense\":[1,2,3]}"), format));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "short       | {\"mixed\":{\"type\":\"tensor(a{},x[2])\",\"blocks\":{\"k\":[1.0,2.0]}}}",
            "short-value | {\"mixed\":{\"k\":[1.0,2.0]}}",
            "long        | {\"mixed\":{\"type\":\"tensor(a{},x[2])\",\"cells\":[{\"address\":{\"a\":\"k\",\"x\":\"0\"},\"value\":1.0},{\"address\":{\"a\":\"k\",\"x\":\"1\"},\"value\":2.0}]}}",
            "long-value  | {\"mixed\":[{\"address\":{\"a\":\"k\",\"x\":\"0\"},\"value\":1.0},{\"address\":{\"a\":\"k\",\"x\":\"1\"},\"value\":2.0}]}",
            "hex         | {\"mixed\":{\"type\":\"tensor(a{},x[2])\",\"blocks\":{\"k\":\"3FF00000000000004000000000000000\"}}}",
            "hex-value   | {\"mixed\":{\"k\":\"3FF00000000000004000000000000000\"}}"})
    void mixedTensor_inEveryFormat(String format, String expected) throws IOException {
        assertEquals(expected, fields(document("{\"mixed\":{\"k\":[1,2]}}"), format));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "short       | {\"sparse\":{\"type\":\"tensor(key{})\",\"cells\":{\"a\":2.0}}}",
            "short-value | {\"sparse\":{\"a\":2.0}}",
            "long        | {\"sparse\":{\"type\":\"tensor(key{})\",\"cells\":[{\"address\":{\"key\":\"a\"},\"value\":2.0}]}}",
            "long-value  | {\"sparse\":[{\"address\":{\"key\":\"a\"},\"value\":2.0}]}",
            "hex         | {\"sparse\":{\"type\":\"tensor(key{})\",\"cells\":{\"a\":2.0}}}",
            "hex-value   | {\"sparse\":{\"a\":2.0}}"})
    void mappedTensor_inEveryFormat(String format, String expected) throws IOException {
        assertEquals(expected, fields(document("{\"sparse\":{\"a\":2}}"), format));
    }

    @Test
    void mixedWithTwoMappedDimensions_hexValue_usesBlockList() throws IOException {
        Document document = document("{\"mixed2\":{\"blocks\":[{\"address\":{\"a\":\"p\",\"b\":\"q\"},\"values\":[1,2]}]}}");
        assertEquals("{\"mixed2\":[{\"address\":{\"a\":\"p\",\"b\":\"q\"},\"values\":\"3FF00000000000004000000000000000\"}]}",
                     fields(document, "hex-value"));
    }

    @Test
    void everyFormat_readsBack() throws IOException {
        Document document = document("{\"dense\":[1,2,3],\"matrix\":[1,2,3,4],\"sparse\":{\"a\":1},\"mixed\":{\"k\":[1,2]},"
                                     + "\"mixed2\":{\"blocks\":[{\"address\":{\"a\":\"p\",\"b\":\"q\"},\"values\":[1,2]}]},"
                                     + "\"sparse2\":[{\"address\":{\"a\":\"p\",\"b\":\"q\"},\"value\":1}],"
                                     + "\"bf\":[1,2],\"i8\":[-1,1]}");
        for (TensorFormat format : TensorFormat.values())
            assertEquals(document, document(fields(document, format.parameter())), format.parameter());
    }

    @Test
    void unknownTensorFormat_failsNamingIt() {
        DocumentJsonException e = assertThrows(DocumentJsonException.class, () -> TensorFormat.fromParameter("tiny"));
        assertEquals("Unknown tensor format 'tiny'; expected one of short, long, short-value, long-value, hex, hex-value",
                     e.getMessage());
    }
}
