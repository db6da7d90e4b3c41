package io.sluice.content.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.token.Token;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;

/**
 * Tokens of the tables' partitions ({@code sb} values) as the cluster's partitioner makes them, from the driver's
 * token map. Visits scan token ranges as signed 64-bit numbers, which only the Murmur3 partitioner (Cassandra's
 * default, and ScyllaDB's) gives.
 */
final class PartitionTokens {

    private final TokenMap map;
    private final ProtocolVersion version;

    private PartitionTokens(TokenMap map, ProtocolVersion version) {
        this.map = map;
        this.version = version;
    }

    /**
     * The tokens of {@code session}'s cluster.
     *
     * @throws IllegalStateException if the driver has no token map (token metadata disabled) or the partitioner is
     *                               not Murmur3
     */
    static PartitionTokens of(CqlSession session) {
        TokenMap map = session.getMetadata().getTokenMap().orElseThrow(() -> new IllegalStateException(
                "Visits need the driver's token map, but it has none: enable advanced.metadata.token-map"));
        if (!map.getPartitionerName().endsWith("Murmur3Partitioner")) {
            throw new IllegalStateException("Visits need the Murmur3Partitioner, but the cluster uses "
                                            + map.getPartitionerName());
        }
        return new PartitionTokens(map, session.getContext().getProtocolVersion());
    }

    /** The token of partition {@code sb}. */
    long of(int sb) {
        return Long.parseLong(map.format(map.newToken(TypeCodecs.INT.encode(sb, version))));
    }

    /** The driver's form of {@code token}, to route a statement to a replica of it. */
    Token routing(long token) {
        return map.parse(Long.toString(token));
    }

}
