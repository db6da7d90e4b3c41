package io.sluice.document.json;

import static io.sluice.document.json.TestTypes.ID;
import static io.sluice.document.json.TestTypes.TYPES;
import static io.sluice.document.json.TestTypes.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonGenerator;
import io.sluice.document.Document;
import java.io.IOException;
import java.io.StringWriter;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class JsonRoundTripTest {

    static Stream<Arguments> values() {
        return Stream.of(
                Arguments.of("s", "\"Polly\"", "\"Polly\""),
                Arguments.of("s", "\"\\u00e6\\n\\\"\"", "\"æ\\n\\\"\""),
                Arguments.of("i", "42", "42"),
                Arguments.of("i", "\"-42\"", "-42"),
                Arguments.of("l", "9007199254740993", "9007199254740993"),
                Arguments.of("b", "-12", "-12"),
                Arguments.of("flag", "true", "true"),
                Arguments.of("flag", "false", "false"),
                Arguments.of("f", "0.4", "0.4"),
                Arguments.of("d", "123.4567", "123.4567"),
                Arguments.of("d", "\"1e3\"", "1000.0"),
                Arguments.of("arr", "[\"a\",\"\",\"b\"]", "[\"a\",\"\",\"b\"]"),
                Arguments.of("ints", "[1,2,3]", "[1,2,3]"),
                Arguments.of("ws", "{\"a\":1,\"b\":-2}", "{\"a\":1,\"b\":-2}"),
                Arguments.of("wsi", "{\"7\":5}", "{\"7\":5}"),
                Arguments.of("m", "{\"k\":1,\"j\":2}", "{\"k\":1,\"j\":2}"),
                Arguments.of("m", "[{\"key\":\"k\",\"value\":1}]", "{\"k\":1}"),
                Arguments.of("mi", "{\"3\":{\"name\":\"x\"}}", "{\"3\":{\"name\":\"x\"}}"),
                Arguments.of("p", "{\"age\":3,\"name\":\"Ann\"}", "{\"name\":\"Ann\",\"age\":3}"),
                Arguments.of("p", "{\"name\":null,\"age\":3}", "{\"age\":3}"),
                Arguments.of("people", "[{\"name\":\"a\"},{\"age\":1}]", "[{\"name\":\"a\"},{\"age\":1}]"),
                Arguments.of("pos", "{\"lat\":37.41,\"lng\":-122.02}", "{\"lat\":37.41,\"lng\":-122.02}"),
                Arguments.of("pos", "{\"latitude\":37.41,\"longitude\":-122.02}", "{\"lat\":37.41,\"lng\":-122.02}"),
                Arguments.of("pos", "{\"y\":37410000,\"x\":-122020000}", "{\"lat\":37.41,\"lng\":-122.02}"),
                Arguments.of("pos", "\"N37.41;W122.02\"", "{\"lat\":37.41,\"lng\":-122.02}"),
                Arguments.of("dense", "[1,2,3]", "{\"type\":\"tensor<float>(x[3])\",\"values\":[1.0,2.0,3.0]}"),
                Arguments.of("dense", "{\"values\":[1,2,3]}", "{\"type\":\"tensor<float>(x[3])\",\"values\":[1.0,2.0,3.0]}"),
                Arguments.of("dense", "\"3F80000040000000C0400000\"",
                             "{\"type\":\"tensor<float>(x[3])\",\"values\":[1.0,2.0,-3.0]}"),
                Arguments.of("dense", "{\"type\":\"whatever\",\"values\":\"3F80000040000000C0400000\"}",
                             "{\"type\":\"tensor<float>(x[3])\",\"values\":[1.0,2.0,-3.0]}"),
                Arguments.of("dense", "[{\"address\":{\"x\":\"2\"},\"value\":5}]",
                             "{\"type\":\"tensor<float>(x[3])\",\"values\":[0.0,0.0,5.0]}"),
                Arguments.of("matrix", "[[1,2],[3,4]]", "{\"type\":\"tensor(x[2],y[2])\",\"values\":[[1.0,2.0],[3.0,4.0]]}"),
                Arguments.of("matrix", "[1,2,3,4]", "{\"type\":\"tensor(x[2],y[2])\",\"values\":[[1.0,2.0],[3.0,4.0]]}"),
                Arguments.of("sparse", "{\"a\":2.0,\"b\":3}", "{\"type\":\"tensor(key{})\",\"cells\":{\"a\":2.0,\"b\":3.0}}"),
                Arguments.of("sparse", "{\"cells\":{\"a\":2.0}}", "{\"type\":\"tensor(key{})\",\"cells\":{\"a\":2.0}}"),
                Arguments.of("sparse", "{\"cells\":[{\"address\":{\"key\":\"a\"},\"value\":2.0}]}",
                             "{\"type\":\"tensor(key{})\",\"cells\":{\"a\":2.0}}"),
                Arguments.of("sparse", "{}", "{\"type\":\"tensor(key{})\",\"cells\":{}}"),
                Arguments.of("mixed", "{\"k\":[1,2],\"j\":\"40000000000000004008000000000000\"}",
                             "{\"type\":\"tensor(a{},x[2])\",\"blocks\":{\"k\":[1.0,2.0],\"j\":[2.0,3.0]}}"),
                Arguments.of("mixed", "{\"blocks\":{\"k\":[1,2]}}", "{\"type\":\"tensor(a{},x[2])\",\"blocks\":{\"k\":[1.0,2.0]}}"),
                Arguments.of("mixed2", "{\"blocks\":[{\"address\":{\"a\":\"p\",\"b\":\"q\"},\"values\":[1,2]}]}",
                             "{\"type\":\"tensor(a{},b{},x[2])\",\"blocks\":[{\"address\":{\"a\":\"p\",\"b\":\"q\"},\"values\":[1.0,2.0]}]}"),
                Arguments.of("sparse2", "[{\"address\":{\"b\":\"q\",\"a\":\"p\"},\"value\":1.5}]",
                             "{\"type\":\"tensor(a{},b{})\",\"cells\":[{\"address\":{\"a\":\"p\",\"b\":\"q\"},\"value\":1.5}]}"),
                Arguments.of("bf", "[1.5,2]", "{\"type\":\"tensor<bfloat16>(x[2])\",\"values\":[1.5,2.0]}"),
                Arguments.of("i8", "\"FF01\"", "{\"type\":\"tensor<int8>(x[2])\",\"values\":[-1.0,1.0]}"),
                Arguments.of("raw", "\"AAEC/w==\"", "\"AAEC/w==\""),
                Arguments.of("uri", "\"https://example.com/a?b=c\"", "\"https://example.com/a?b=c\""),
                Arguments.of("pred", "\"gender in [Female] and age in [20..30]\"",
                             "\"gender in [Female] and age in [20..30]\""),
                Arguments.of("pred", "\"AGE IN [..30] OR gender in [male,Female] and 'x_1' not in ['\\u00e9']\"",
                             "\"AGE in [..30] or (gender in [Female, male] and 'x_1' not in ['\\\\xC3\\\\xA9'])\""),
                Arguments.of("ref", "\"id:ns:other::p\"", "\"id:ns:other::p\""));
    }

    @ParameterizedTest(name = "{0} = {1}")
    @MethodSource("values")
    void roundTrip_everyType_matchesPutFormat(String field, String input, String output) throws IOException {
        String body = "{\"fields\":{\"" + field + "\":" + input + "}}";
        Document document = DocumentJsonReader.strict(TYPES).readPut(ID, utf8(body)).document();
        String written = fieldsJson(document);
        assertEquals("{\"" + field + "\":" + output + "}", written);
        Document again = DocumentJsonReader.strict(TYPES).readFields(ID, utf8(written)).document();
        assertEquals(document, again);
    }

    static String fieldsJson(Document document) throws IOException {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = DocumentJson.factory().createGenerator(out)) {
            DocumentJsonWriter.create().writeFields(generator, document);
        }
        return out.toString();
    }
}
