package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class CassandraOptionsTest {

    @Test
    void noOptions_givesDefaultsWithRedundancyAsReplicationFactor() {
        CassandraOptions options = CassandraOptions.fromEngineOptions("music", 3, Map.of());
        assertEquals(CassandraOptions.defaults("music", 3), options);
        assertEquals(List.of(3, "sluice_music", DefaultConsistencyLevel.LOCAL_QUORUM,
                             DefaultConsistencyLevel.LOCAL_SERIAL, "datacenter1"),
                     List.of(options.replicationFactor(), options.keyspace(), options.consistency(),
                             options.serialConsistency(), options.localDatacenter()));
    }

    @Test
    void everyOption_isRead() {
        CassandraOptions options = CassandraOptions.fromEngineOptions("music", 1, Map.ofEntries(
                Map.entry("contact-points", "10.0.0.1:9142, cassandra2,[::1]:9043"),
                Map.entry("local-datacenter", "dc2"),
                Map.entry("keyspace", "docs"),
                Map.entry("replication-factor", "2"),
                Map.entry("replication-strategy", "SimpleStrategy"),
                Map.entry("consistency", "quorum"),
                Map.entry("serial-consistency", "SERIAL"),
                Map.entry("request-timeout", "2.5"),
                Map.entry("distribution-bits", "12"),
                Map.entry("tombstone-retention", "3600"),
                Map.entry("max-pending", "100"),
                Map.entry("create-schema", "true"),
                Map.entry("write-mode", "strict"),
                Map.entry("max-clock-skew", "0.2"),
                Map.entry("visit-consistency", "one"),
                Map.entry("get-consistency", "local_one"),
                Map.entry("compaction", "size-tiered"),
                Map.entry("require-synced-commitlog", "true")));
        assertEquals(new CassandraOptions(List.of(InetSocketAddress.createUnresolved("10.0.0.1", 9142),
                                                  InetSocketAddress.createUnresolved("cassandra2", 9042),
                                                  InetSocketAddress.createUnresolved("::1", 9043)),
                                          "dc2", "docs", 2, "SimpleStrategy", DefaultConsistencyLevel.QUORUM,
                                          DefaultConsistencyLevel.SERIAL, Duration.ofMillis(2500), 12,
                                          Duration.ofHours(1), 100, true, CassandraOptions.WriteMode.STRICT,
                                          Duration.ofMillis(200), DefaultConsistencyLevel.ONE,
                                          DefaultConsistencyLevel.LOCAL_ONE, CassandraOptions.Compaction.SIZE_TIERED,
                                          true),
                     options);
    }

    @Test
    void clusterId_withOddCharacters_becomesValidKeyspace() {
        assertEquals("sluice_my_music_2", CassandraOptions.defaults("My-Music.2", 1).keyspace());
    }

    @Test
    void unknownOption_failsNamingIt() {
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("contact-point", "x")));
        assertEquals("Unknown <cassandra> option contact-point; known are compaction, consistency, contact-points, "
                     + "create-schema, distribution-bits, get-consistency, keyspace, local-datacenter, "
                     + "max-clock-skew, max-pending, "
                     + "replication-factor, replication-strategy, request-timeout, require-synced-commitlog, "
                     + "serial-consistency, "
                     + "tombstone-retention, visit-consistency, write-mode", e.getMessage());
    }

    @Test
    void writeMode_isTimestampedByDefault_andRefusesOthers() {
        assertEquals(CassandraOptions.WriteMode.TIMESTAMPED, CassandraOptions.defaults("music", 1).writeMode());
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("write-mode", "linearizable")));
        assertEquals("write-mode must be 'timestamped' or 'strict', but was 'linearizable'", e.getMessage());
    }

    @Test
    void compaction_isLeveledByDefault_refusesOthers_andNeedsCreateSchema() {
        assertEquals(CassandraOptions.Compaction.LEVELED, CassandraOptions.defaults("music", 1).compaction());
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("compaction", "time-window")));
        assertEquals("compaction must be 'leveled' or 'size-tiered', but was 'time-window'", e.getMessage());
        e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("compaction", "leveled",
                                                                            "create-schema", "false")));
        assertEquals("compaction applies to the tables Sluice creates, but create-schema is false: set the "
                     + "strategy on your own tables, and remove compaction", e.getMessage());
        assertEquals(false, CassandraOptions.fromEngineOptions("music", 1, Map.of("create-schema", "false"))
                                            .createSchema());
    }

    @Test
    void maxClockSkew_outOfRange_fails() {
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("max-clock-skew", "30")));
        assertEquals("max-clock-skew must be from 0.001 to 10 seconds, but was 30.0", e.getMessage());
    }

    @Test
    void badConsistency_failsNamingValue() {
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("consistency", "MOST")));
        assertEquals("consistency 'MOST' is not a Cassandra consistency level, such as LOCAL_QUORUM, QUORUM, "
                     + "LOCAL_SERIAL or SERIAL", e.getMessage());
    }

    @Test
    void visitConsistency_isConsistencyUnlessSet() {
        assertFollowsConsistencyUnlessSet("visit-consistency", CassandraOptions::visitConsistency);
    }

    @Test
    void getConsistency_isConsistencyUnlessSet() {
        assertFollowsConsistencyUnlessSet("get-consistency", CassandraOptions::getConsistency);
    }

    @Test
    void getConsistency_leavesTheOtherLevels() {
        CassandraOptions oneForGets = CassandraOptions.fromEngineOptions("music", 1, Map.of("get-consistency",
                                                                                            "LOCAL_ONE"));
        assertEquals(DefaultConsistencyLevel.LOCAL_QUORUM, oneForGets.consistency());
        assertEquals(DefaultConsistencyLevel.LOCAL_QUORUM, oneForGets.visitConsistency());
    }

    /** {@code option}'s level, read by {@code level}, is {@code consistency}'s unless the option is set. */
    private static void assertFollowsConsistencyUnlessSet(String option,
                                                          Function<CassandraOptions, ConsistencyLevel> level) {
        assertEquals(DefaultConsistencyLevel.LOCAL_QUORUM,
                     level.apply(CassandraOptions.fromEngineOptions("music", 1, Map.of())));
        assertEquals(DefaultConsistencyLevel.QUORUM,
                     level.apply(CassandraOptions.fromEngineOptions("music", 1, Map.of("consistency", "QUORUM"))));
        assertEquals(DefaultConsistencyLevel.ONE,
                     level.apply(CassandraOptions.fromEngineOptions("music", 1, Map.of("consistency", "QUORUM",
                                                                                      option, "ONE"))));
    }

    @Test
    void serialGetConsistency_fails() {
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("get-consistency", "SERIAL")));
        assertEquals("get-consistency must not be serial, but was SERIAL", e.getMessage());
    }

    @Test
    void serialVisitConsistency_fails() {
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("visit-consistency", "LOCAL_SERIAL")));
        assertEquals("visit-consistency must not be serial, but was LOCAL_SERIAL", e.getMessage());
    }

    @Test
    void nonSerialSerialConsistency_fails() {
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("serial-consistency", "QUORUM")));
        assertEquals("serial-consistency must be SERIAL or LOCAL_SERIAL, but was QUORUM", e.getMessage());
    }

    @Test
    void badPort_failsNamingEntry() {
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("contact-points", "a:1,b:99999")));
        assertEquals("contact-points entry 'b:99999' has no valid port", e.getMessage());
    }

    @Test
    void distributionBitsOutOfRange_fails() {
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("distribution-bits", "33")));
        assertEquals("distribution-bits must be in [1, 32], but was 33", e.getMessage());
    }

    @Test
    void nonNumericTimeout_failsNamingValue() {
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("request-timeout", "10s")));
        assertEquals("request-timeout must be a positive number of seconds, but was '10s'", e.getMessage());
    }

    @Test
    void badKeyspace_failsNamingIt() {
        InvalidCassandraOptionException e = assertThrows(InvalidCassandraOptionException.class,
                () -> CassandraOptions.fromEngineOptions("music", 1, Map.of("keyspace", "1docs")));
        assertEquals("keyspace '1docs' is not a valid Cassandra name: a letter, then up to 47 letters, digits or "
                     + "underscores", e.getMessage());
    }

}
