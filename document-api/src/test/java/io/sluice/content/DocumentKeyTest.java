package io.sluice.content;

import io.sluice.document.BucketId;
import io.sluice.document.DocumentId;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DocumentKeyTest {

    @Test
    void of_usesOrderKeyOfDocumentsBucket() {
        DocumentId id = DocumentId.of("id:ns:mytype::1");
        assertEquals(new DocumentKey(BucketId.of(id).orderKey(), "id:ns:mytype::1"), DocumentKey.of(id));
    }

    @Test
    void compareTo_ordersOrderKeysUnsigned() {
        assertTrue(new DocumentKey(1, "a").compareTo(new DocumentKey(-1L, "a")) < 0);
    }

    @Test
    void compareTo_bucketStart_precedesDocumentsWithSameOrderKey() {
        assertTrue(DocumentKey.bucketStart(5).compareTo(new DocumentKey(5, "id:a:b::c")) < 0);
    }

    @Test
    void compareTo_idsInCodePointOrder_notUtf16Order() {
        String supplementary = "id:ns:t::" + new String(Character.toChars(0x1F600));
        String highBmp = "id:ns:t::\uFF01";
        // UTF-16 puts the surrogate pair (0xD83D...) first; code points (and UTF-8 bytes) put U+FF01 first.
        assertTrue(supplementary.compareTo(highBmp) < 0);
        assertTrue(new DocumentKey(0, highBmp).compareTo(new DocumentKey(0, supplementary)) < 0);
    }

    @Test
    void compareTo_prefix_sortsFirst() {
        assertTrue(new DocumentKey(0, "id:ns:t::a").compareTo(new DocumentKey(0, "id:ns:t::ab")) < 0);
    }

    @Test
    void superbucket_isContiguousInKeyOrder() {
        DocumentId a = DocumentId.of("id:ns:t:n=5:a");
        DocumentId b = DocumentId.of("id:ns:t:n=5:b");
        KeyRange superbucket = new KeyRange(Long.reverse(5L & 0xFF), Long.reverse(5L & 0xFF) + (1L << 56) - 1);
        assertTrue(superbucket.contains(DocumentKey.of(a).orderKey()));
        assertTrue(superbucket.contains(DocumentKey.of(b).orderKey()));
    }

    @Test
    void compareCodePoints_agreesWithDecodedCodePoints_onRandomMixedStrings() {
        java.util.Random random = new java.util.Random(42);
        int[] pool = { 'a', 'b', 'z', 0x7f, 0xe9, 0x4e2d, 0xd7ff, 0xe000, 0xfffd, 0xffff, 0x10000, 0x1f600, 0x10ffff };
        for (int n = 0; n < 20000; n++) {
            String a = randomString(random, pool);
            String b = random.nextInt(4) == 0 ? a + randomString(random, pool) : randomString(random, pool);
            int expected = Integer.signum(java.util.Arrays.compare(a.codePoints().toArray(), b.codePoints().toArray()));
            assertEquals(expected, Integer.signum(DocumentKey.compareCodePoints(a, b)), a + " vs " + b);
        }
    }

    private static String randomString(java.util.Random random, int[] pool) {
        StringBuilder text = new StringBuilder();
        for (int i = random.nextInt(5); i > 0; i--)
            text.appendCodePoint(pool[random.nextInt(pool.length)]);
        return text.toString();
    }

}
