package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import io.sluice.content.BucketSpace;
import io.sluice.content.cassandra.CassandraOptions.Compaction;
import io.sluice.content.cassandra.harness.SharedNode;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.PrimitiveType;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Sluice creates its tables with the configured compaction, and says so when an existing table has another. */
@Tag("cassandra")
class CompactionTest {

    private static final DocumentTypes TYPES = DocumentTypes.of(List.of(
            DocumentType.builder("music").field("title", PrimitiveType.STRING).build()));

    @Test
    void tablesAreCreatedWithTheConfiguredCompaction_andAnExistingTableWithAnotherIsReportedNotChanged() {
        CassandraOptions leveled = CassandraOptions.defaults("compaction", 1)
                                                   .withContactPoints(List.of(SharedNode.get().nativeAddress()));
        assertEquals(Compaction.LEVELED, leveled.compaction());
        CassandraOptions sizeTiered = leveled.withKeyspace("sluice_compaction_st")
                                             .withCompaction(Compaction.SIZE_TIERED);
        try (CqlSession session = CassandraContentBackend.connect(leveled)) {
            CassandraContentBackend.builder(leveled, TYPES).session(session).build().close();
            CassandraContentBackend.builder(sizeTiered, TYPES).session(session).build().close();
            for (BucketSpace space : BucketSpace.values()) {
                String table = Schema.table(leveled.keyspace(), space);
                assertEquals("org.apache.cassandra.db.compaction.LeveledCompactionStrategy", Schema.compactionClass(session, table));
                assertEquals(Optional.empty(), Schema.compactionMismatch(session, table, Compaction.LEVELED));
            }

            String table = Schema.table(sizeTiered.keyspace(), BucketSpace.DEFAULT);
            assertEquals("org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy", Schema.compactionClass(session, table));
            // Opening with leveled compaction leaves the table as it is, and says how to switch it.
            CassandraContentBackend.builder(sizeTiered.withCompaction(Compaction.LEVELED), TYPES).session(session)
                                   .build().close();
            assertEquals("org.apache.cassandra.db.compaction.SizeTieredCompactionStrategy", Schema.compactionClass(session, table));
            assertEquals(Optional.of("Table " + table + " uses SizeTieredCompactionStrategy, not the configured "
                                     + "compaction 'leveled' (LeveledCompactionStrategy): Sluice sets the strategy "
                                     + "only on the tables it creates. To switch (Cassandra then rewrites the table), "
                                     + "run: ALTER TABLE " + table + " WITH compaction = {'class': "
                                     + "'LeveledCompactionStrategy'}; or set compaction to what the table has to "
                                     + "silence this"),
                         Schema.compactionMismatch(session, table, Compaction.LEVELED));
            // The statement it gives does switch it.
            session.execute(Schema.alterCompaction(table, Compaction.LEVELED));
            assertEquals(Optional.empty(), Schema.compactionMismatch(session, table, Compaction.LEVELED));
        }
    }

}
