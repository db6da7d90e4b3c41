package io.sluice.content.embedded;

import io.sluice.document.Document;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.IntValue;
import io.sluice.document.PrimitiveType;
import io.sluice.document.StringValue;

import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The operations of the crash test, the same in the feeding child process and the verifying test: per document a
 * chain of puts and removes, each issued once the previous one was acknowledged. Everything follows from the seed,
 * so the verifier rebuilds each document's exact content from the chain and step numbers the child printed.
 *
 * <p>The generators are {@link SplittableRandom}s, which mix their seed: {@code java.util.Random} seeded with
 * neighbouring numbers draws nearly the same first values, which once gave every chain of a seed a single step (2,000
 * operations in all, fewer than the test's kill point).
 */
final class CrashWorkload {

    static final DocumentType TYPE = DocumentType.builder("music")
            .field("title", PrimitiveType.STRING)
            .field("year", PrimitiveType.INT)
            .field("body", PrimitiveType.STRING)
            .build();
    static final DocumentTypes TYPES = DocumentTypes.of(List.of(TYPE));
    static final int CHAINS = 2000;
    static final int MAX_STEPS = 4;

    private final long seed;

    CrashWorkload(long seed) {
        this.seed = seed;
    }

    static DocumentId id(int chain) {
        return DocumentId.of("id:crash:music::doc-" + chain);
    }

    /** Number of operations in a chain, 1..MAX_STEPS. */
    int steps(int chain) {
        return 1 + new SplittableRandom(seed * 7919 + chain).nextInt(MAX_STEPS);
    }

    /** Number of operations over all chains. */
    int operations() {
        int operations = 0;
        for (int chain = 0; chain < CHAINS; chain++) {
            operations += steps(chain);
        }
        return operations;
    }

    /** The document step {@code step} of {@code chain} puts, or empty if that step is a remove. The first is a put. */
    Optional<Document> document(int chain, int step) {
        SplittableRandom random = new SplittableRandom(seed * 104_729 + chain * 31L + step);
        if (step > 0 && random.nextInt(3) == 0) {
            return Optional.empty();
        }
        StringBuilder body = new StringBuilder();
        int length = 100 + random.nextInt(900);
        while (body.length() < length) {
            body.append((char) ('a' + random.nextInt(26)));
            if (random.nextInt(8) == 0) {
                body.append(' ');
            }
        }
        return Optional.of(Document.builder(TYPE, id(chain))
                                   .set("title", new StringValue("chain " + chain + " step " + step))
                                   .set("year", new IntValue(step))
                                   .set("body", new StringValue(body.toString()))
                                   .build());
    }

}
