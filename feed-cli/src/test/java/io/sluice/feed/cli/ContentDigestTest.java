package io.sluice.feed.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ContentDigestTest {

    private static ContentDigest.Entry digest(String line) throws IOException {
        byte[] bytes = ("xx" + line + "yy").getBytes(StandardCharsets.UTF_8);
        return new ContentDigest().digest(bytes, 2, bytes.length - 4);
    }

    private static void assertSame(String a, String b) throws IOException {
        ContentDigest.Entry x = digest(a), y = digest(b);
        assertEquals(x.high(), y.high(), a + " vs " + b);
        assertEquals(x.low(), y.low(), a + " vs " + b);
    }

    private static void assertDifferent(String a, String b) throws IOException {
        ContentDigest.Entry x = digest(a), y = digest(b);
        assertNotEquals(x.high() + "/" + x.low(), y.high() + "/" + y.low(), a + " vs " + b);
    }

    private static String doc(String fields) {
        return "{\"id\":\"id:ns:music::1\",\"fields\":" + fields + "}";
    }

    @Test
    void id_isReadFromIdOrPut() throws IOException {
        assertEquals("id:ns:music::1", digest(doc("{}")).id());
        assertEquals("id:ns:music::2", digest("{\"fields\":{},\"put\":\"id:ns:music::2\"}").id());
    }

    @Test
    void objectKeyOrder_doesNotMatter_atAnyDepth() throws IOException {
        assertSame(doc("{\"a\":1,\"b\":{\"x\":[1,{\"p\":true,\"q\":null}],\"y\":\"s\"}}"),
                   doc("{\"b\":{\"y\":\"s\",\"x\":[1,{\"q\":null,\"p\":true}]},\"a\":1}"));
    }

    @Test
    void documentKeysBesidesIdAndFields_areIgnored() throws IOException {
        assertSame(doc("{\"a\":1}"), "{\"fields\":{\"a\":1},\"id\":\"id:ns:music::1\",\"create\":true}");
        assertSame(doc("{}"), "{\"id\":\"id:ns:music::1\"}");
    }

    @Test
    void numbers_compareByValue() throws IOException {
        assertSame(doc("{\"a\":1}"), doc("{\"a\":1.0}"));
        assertSame(doc("{\"a\":1}"), doc("{\"a\":1e0}"));
        assertSame(doc("{\"a\":0.5}"), doc("{\"a\":0.50}"));
        assertSame(doc("{\"a\":0}"), doc("{\"a\":-0.0}"));
        assertDifferent(doc("{\"a\":0.1}"), doc("{\"a\":0.10000000149011612}"));
        assertDifferent(doc("{\"a\":1}"), doc("{\"a\":2}"));
        assertDifferent(doc("{\"a\":9223372036854775807}"), doc("{\"a\":9223372036854775806}"));
        assertDifferent(doc("{\"a\":18446744073709551616}"), doc("{\"a\":18446744073709551617}"));
    }

    @Test
    void strings_compareByTheirCharacters_howeverEscaped() throws IOException {
        assertSame(doc("{\"a\":\"\\u00e6 \\/ \\\" \\ud83d\\ude00 \\n\"}"), doc("{\"a\":\"\u00e6 / \\\" \ud83d\ude00 \\n\"}"));
        assertSame(doc("{\"\\u0061\":1}"), doc("{\"a\":1}"));
        assertSame("{\"id\":\"id:ns:music::\\u00e6\",\"fields\":{}}", "{\"id\":\"id:ns:music::\u00e6\",\"fields\":{}}");
        assertEquals("id:ns:music::\u00e6", digest("{\"id\":\"id:ns:music::\\u00e6\",\"fields\":{}}").id());
        assertSame(doc("{\"a\":\"abcdefghij\\u006bmnopqrstuvwxyz0123456789\"}"), doc("{\"a\":\"abcdefghijkmnopqrstuvwxyz0123456789\"}"));
        assertDifferent(doc("{\"a\":\"\\n\"}"), doc("{\"a\":\"n\"}"));
        assertDifferent(doc("{\"a\":\"abcdefgh\"}"), doc("{\"a\":\"abcdefg\"}"));
        assertDifferent(doc("{\"a\":\"abcdefghijklmnopq\"}"), doc("{\"a\":\"abcdefghijklmnopr\"}"));
    }

    @Test
    void whitespace_doesNotMatter() throws IOException {
        assertSame(doc("{\"a\":[1,2],\"b\":{\"c\":null}}"), " { \"id\" : \"id:ns:music::1\" ,\n\"fields\":{ \"a\" : [ 1 , 2 ] , \"b\" : { \"c\" : null } } } ");
    }

    @Test
    void valuesOfDifferentTypes_differ() throws IOException {
        assertDifferent(doc("{\"a\":1}"), doc("{\"a\":\"1\"}"));
        assertDifferent(doc("{\"a\":true}"), doc("{\"a\":1}"));
        assertDifferent(doc("{\"a\":null}"), doc("{}"));
        assertDifferent(doc("{\"a\":[]}"), doc("{\"a\":{}}"));
        assertDifferent(doc("{\"a\":\"\"}"), doc("{\"a\":[]}"));
    }

    @Test
    void arrays_keepTheirOrder() throws IOException {
        assertDifferent(doc("{\"a\":[1,2]}"), doc("{\"a\":[2,1]}"));
        assertDifferent(doc("{\"a\":[[1],2]}"), doc("{\"a\":[1,[2]]}"));
        assertDifferent(doc("{\"a\":[1]}"), doc("{\"a\":[1,1]}"));
    }

    @Test
    void keysAndValues_areNotInterchangeable() throws IOException {
        assertDifferent(doc("{\"a\":\"b\"}"), doc("{\"b\":\"a\"}"));
        assertDifferent(doc("{\"a\":{\"x\":1},\"b\":{\"y\":2}}"), doc("{\"a\":{\"y\":2},\"b\":{\"x\":1}}"));
        assertDifferent(doc("{\"a\":{\"x\":1,\"y\":2}}"), doc("{\"a\":{\"x\":2,\"y\":1}}"));
        assertDifferent(doc("{\"title\":\"ab\"}"), doc("{\"title\":\"ba\"}"));
    }

    @Test
    void notADocument_isAnErrorNamingIt() {
        IOException e = assertThrows(IOException.class, () -> digest("{\"fields\":{}}"));
        assertEquals("A visited document without an id: {\"fields\":{}}", e.getMessage());
        assertThrows(IOException.class, () -> digest("[1]"));
        assertThrows(IOException.class, () -> digest("{\"id\":\"x\",\"fields\":{"));
        assertThrows(IOException.class, () -> digest("{\"id\":\"x\",\"fields\":{\"a\":tru}}"));
        assertThrows(IOException.class, () -> digest("{\"id\":\"x\",\"fields\":{\"a\":1-2}}"));
        assertThrows(IOException.class, () -> digest("{\"id\":\"x\",\"fields\":{\"a\":\"\\q\"}}"));
        assertThrows(IOException.class, () -> digest("{\"id\":\"x\"} x"));
    }

}
