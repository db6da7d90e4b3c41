package io.sluice.content.embedded;

import io.sluice.document.DocumentId;
import io.sluice.content.DocumentKey;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

class StoreKeysTest {

    private static int signum(int value) {
        return Integer.signum(value);
    }

    @Test
    void storeKey_ofAnId_isItsDocumentKeysStoreKey_endingWithTheIdsBytes() {
        for (String id : List.of("id:ns:music::a", "id:ns:music:n=17:b", "id:ns:music:g=g:c", "id:ns:m::\u00e6")) {
            DocumentId documentId = DocumentId.of(id);
            StoreKey key = new StoreKey(documentId);

            assertArrayEquals(id.getBytes(StandardCharsets.UTF_8), key.idBytes(), id);
            assertArrayEquals(StoreKeys.of(DocumentKey.of(documentId)), key.bytes(), id);
            byte[] bytes = key.bytes();
            assertArrayEquals(key.idBytes(), Arrays.copyOfRange(bytes, StoreKeys.ORDER_KEY_BYTES, bytes.length), id);
        }
    }

    @Test
    void storeKeys_sortBytewiseInVisitingOrder() {
        Random random = new Random(17);
        String[] ids = { "", "a", "ab", "b", "\u00e6", "\uD83D\uDE00", "\uFFFD", "z" };
        List<DocumentKey> keys = new ArrayList<>();
        long[] orderKeys = { 0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE, random.nextLong(), random.nextLong() };
        for (long orderKey : orderKeys) {
            for (String id : ids) {
                keys.add(new DocumentKey(orderKey, id));
            }
        }
        for (DocumentKey a : keys) {
            for (DocumentKey b : keys) {
                assertEquals(signum(a.compareTo(b)), signum(Arrays.compareUnsigned(StoreKeys.of(a), StoreKeys.of(b))),
                             a + " vs " + b);
            }
        }
    }

    @Test
    void documentKey_ofStoreKey_isTheKeyEncoded() {
        DocumentKey key = DocumentKey.of(DocumentId.of("id:ns:music:n=7:\u00e6"));

        assertEquals(key, StoreKeys.documentKey(StoreKeys.of(key)));
    }

    @Test
    void bucketStart_isTheEightBytePrefixOfItsDocuments() {
        DocumentKey document = DocumentKey.of(DocumentId.of("id:ns:music::a"));
        byte[] start = StoreKeys.of(DocumentKey.bucketStart(document.orderKey()));

        assertArrayEquals(Arrays.copyOf(StoreKeys.of(document), 8), start);
    }

    @Test
    void tombstoneIndexKey_sortsByTimestampFirstAndKeepsStoreKey() {
        byte[] storeKey = StoreKeys.of(DocumentKey.of(DocumentId.of("id:ns:music::a")));
        byte[] early = StoreKeys.tombstoneIndexKey(5, StoreKeys.of(new DocumentKey(-1, "z")));
        byte[] late = StoreKeys.tombstoneIndexKey(6, storeKey);

        assertEquals(-1, signum(Arrays.compareUnsigned(early, late)));
        assertEquals(6, StoreKeys.tombstoneTimestamp(late));
        assertArrayEquals(storeKey, StoreKeys.tombstoneStoreKey(late));
    }

}
