package io.sluice.bench;

import io.sluice.document.ArrayValue;
import io.sluice.document.Document;
import io.sluice.document.DocumentUpdate;
import io.sluice.document.FieldValue;
import io.sluice.document.IntValue;
import io.sluice.document.StringValue;
import io.sluice.document.json.DocumentJsonReader;
import io.sluice.document.json.DocumentUpdateJsonReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class CorpusTest {

    @ParameterizedTest
    @ValueSource(ints = { 1024, 10240 })
    void putBody_hasExactlyTheAskedSize(int bytes) {
        for (int n = 0; n < 50; n++) assertEquals(bytes, Corpus.putBody(n, bytes).length, "document " + n);
    }

    @ParameterizedTest
    @ValueSource(ints = { 1024, 10240 })
    void updateBody_hasExactlyTheAskedSize(int bytes) {
        for (int n = 0; n < 50; n++) assertEquals(bytes, Corpus.updateBody(n, bytes).length, "update " + n);
    }

    @Test
    void putBody_isTheSameForTheSameNumber() {
        assertArrayEquals(Corpus.putBody(7, 1024), Corpus.putBody(7, 1024));
        assertFalse(Arrays.equals(Corpus.putBody(7, 1024), Corpus.putBody(8, 1024)));
    }

    @Test
    void putBody_readsAsAnArticleWithEveryField() {
        Document document = DocumentJsonReader.strict(Corpus.TYPES).readPut(Corpus.id(3), Corpus.putBody(3, 1024)).document();
        assertEquals(Set.of("title", "year", "score", "tags", "body"), document.fields().keySet());
    }

    @Test
    void updateBody_appliesToADocument() {
        Document document = Corpus.document(5, 1024);
        DocumentUpdate update = DocumentUpdateJsonReader.strict(Corpus.TYPES).readUpdate(Corpus.id(5), Corpus.updateBody(5, 1024)).update();
        Document updated = update.applyTo(document);
        int year = ((IntValue) document.value("year").orElseThrow()).value();
        assertEquals(new IntValue(year + 1), updated.value("year").orElseThrow());
        List<FieldValue> tags = ((ArrayValue) updated.value("tags").orElseThrow()).elements();
        assertEquals(new StringValue("updated"), tags.get(tags.size() - 1));
    }

}
