package io.sluice.bench;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;

import java.util.List;
import java.util.Random;

/** Documents of about 1 KiB in JSON: a title, a year and a body of words, like a short article. */
final class BenchDocuments {

    static final DocumentType TYPE = DocumentType.builder("article")
            .field("title", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .field("body", PrimitiveType.STRING)
            .build();
    static final DocumentTypes TYPES = DocumentTypes.of(List.of(TYPE));
    private static final String[] WORDS = ("the of and to in is that for it as was with be by on not he this are or "
                                           + "his from at which but have an they you were her she there been one all "
                                           + "would their we him has when who will more no if out so said what up its "
                                           + "about into than them can only other new some could time these two may "
                                           + "then do first any my now such like our over man me even most made after "
                                           + "also did many before must through back years where much your way well "
                                           + "store document bucket slice visit feed cluster schema field tensor").split(" ");
    private static final int BODY_CHARS = 950;

    private BenchDocuments() { }

    static DocumentId id(long n) {
        return DocumentId.of("id:bench:article::" + n);
    }

    /** Document {@code n}, the same for the same {@code n}: about 1 KiB as JSON. */
    static Document document(long n) {
        Random random = new Random(n);
        StringBuilder body = new StringBuilder(BODY_CHARS + 16);
        while (body.length() < BODY_CHARS) {
            body.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        return Document.builder(TYPE, id(n))
                       .set("title", new StringValue("Article number " + n))
                       .set("year", new IntValue(1900 + random.nextInt(126)))
                       .set("body", new StringValue(body.toString()))
                       .build();
    }

}
