package io.sluice.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One {@code <content id>} cluster: the document types it stores, its redundancy, nodes and storage engine.
 *
 * @param id            the cluster id, used by the {@code cluster} request parameter
 * @param documents     the document types, each once
 * @param minRedundancy copies of each document ({@code <min-redundancy>}, or the older {@code <redundancy>})
 * @param nodes         the {@code <nodes><node>} entries
 * @param engine        which content backend stores the documents
 * @param dataDirectory where the embedded engine keeps its files; empty means {@code data/<id>} beside the package
 * @param engineOptions engine-specific settings from the {@code <engine>} element (e.g. sync mode, contact points)
 * @param selection     the document selection of the documents the cluster keeps, from the {@code selection} of
 *                      {@code <documents>} and of its {@code <document>}s; empty keeps every document of its types
 * @param garbageCollectionInterval with {@code garbage-collection="true"}, how often documents outside
 *                      {@code selection} are removed
 */
public record ContentCluster(String id, List<DocumentTypeRef> documents, int minRedundancy, List<Node> nodes,
                             Engine engine, Optional<Path> dataDirectory, Map<String, String> engineOptions,
                             Optional<String> selection, Optional<Duration> garbageCollectionInterval) {

    /** Vespa's default {@code garbage-collection-interval}. */
    public static final Duration DEFAULT_GARBAGE_COLLECTION_INTERVAL = Duration.ofSeconds(3600);

    /** A cluster that keeps every document of its types. */
    public ContentCluster(String id, List<DocumentTypeRef> documents, int minRedundancy, List<Node> nodes,
                          Engine engine, Optional<Path> dataDirectory, Map<String, String> engineOptions) {
        this(id, documents, minRedundancy, nodes, engine, dataDirectory, engineOptions, Optional.empty(), Optional.empty());
    }

    public enum Engine { EMBEDDED, MEMORY, CASSANDRA }

    public enum Mode { INDEX, STORE_ONLY, STREAMING }

    /** A {@code <document type mode global/>}. */
    public record DocumentTypeRef(String type, Mode mode, boolean global) {
        public DocumentTypeRef {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(mode, "mode");
        }
    }

    /** A {@code <node hostalias distribution-key/>}. */
    public record Node(String hostAlias, int distributionKey) {
        public Node {
            Objects.requireNonNull(hostAlias, "hostAlias");
            if (distributionKey < 0)
                throw new ConfigException("distribution-key must be non-negative, but was " + distributionKey);
        }
    }

    public ContentCluster {
        Objects.requireNonNull(id, "id");
        documents = List.copyOf(documents);
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(dataDirectory, "dataDirectory");
        engineOptions = Map.copyOf(engineOptions);
        Objects.requireNonNull(selection, "selection");
        Objects.requireNonNull(garbageCollectionInterval, "garbageCollectionInterval");
        if (garbageCollectionInterval.isPresent() && selection.isEmpty())
            throw new ConfigException("<content id='" + id + "'> has garbage collection but no document selection");
        if (documents.isEmpty())
            throw new ConfigException("<content id='" + id + "'> has no <document>");
        var types = new HashSet<String>();
        for (DocumentTypeRef document : documents)
            if ( ! types.add(document.type()))
                throw new ConfigException("<content id='" + id + "'> lists document type '" + document.type() + "' twice");
        if (minRedundancy < 1)
            throw new ConfigException("<content id='" + id + "'> redundancy must be at least 1, but was " + minRedundancy);
        var keys = new HashSet<Integer>();
        for (Node node : nodes)
            if ( ! keys.add(node.distributionKey()))
                throw new ConfigException("<content id='" + id + "'> has distribution-key " + node.distributionKey() + " twice");
    }

}
