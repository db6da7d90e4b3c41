package io.sluice.container.document;

import io.sluice.config.ApplicationPackage;
import io.sluice.config.ConfigException;
import io.sluice.config.ContentCluster;
import io.sluice.container.HttpStatusException;
import io.sluice.document.Document;
import io.sluice.document.DocumentException;
import io.sluice.document.DocumentId;
import io.sluice.document.DocumentType;
import io.sluice.document.DocumentTypes;
import io.sluice.document.select.DocumentSelection;
import io.sluice.document.select.DocumentSelectionContext;
import io.sluice.document.select.Result;
import io.sluice.document.select.SelectionSchema;
import io.sluice.content.BucketSpace;
import io.sluice.content.ContentBackend;
import io.sluice.document.schema.SchemaParser;
import org.eclipse.jetty.http.HttpStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The content clusters requests are routed to: for each, its backend and the document types it stores (and which of
 * those are global). Owns the backends: {@link #close()} closes them all.
 */
public final class ContentClusters implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ContentClusters.class);

    /**
     * One content cluster.
     *
     * @param id          the {@code <content id>}, matched by the {@code cluster} parameter
     * @param backend     where its documents are
     * @param types       the document types it stores, by name, in configuration order
     * @param globalTypes the names of those that are global (bucket space {@code global})
     * @param selection   the documents it keeps ({@code selection} of {@code <documents>}); empty keeps all
     * @param garbageCollectionInterval how often documents outside {@code selection} are removed, if they are
     */
    public record Cluster(String id, ContentBackend backend, List<String> types, List<String> globalTypes,
                          Optional<DocumentSelection> selection, Optional<Duration> garbageCollectionInterval) {

        public Cluster {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(backend, "backend");
            types = List.copyOf(types);
            globalTypes = List.copyOf(globalTypes);
            Objects.requireNonNull(selection, "selection");
            Objects.requireNonNull(garbageCollectionInterval, "garbageCollectionInterval");
        }

        /** A cluster that keeps every document of its types. */
        public Cluster(String id, ContentBackend backend, List<String> types, List<String> globalTypes) {
            this(id, backend, types, globalTypes, Optional.empty(), Optional.empty());
        }

        /**
         * Whether a put of {@code document} goes to this cluster: its selection must hold for it (Vespa's document
         * route selector takes a put only where the selection is true).
         */
        public boolean keeps(Document document, Clock clock) {
            return selection.isEmpty() || selection.get().matches(DocumentSelectionContext.of(document), clock);
        }

        /**
         * Whether an update or remove of {@code id} goes to this cluster: unless its selection is false for the id alone
         * (field values are unknown, so a selection on fields lets it through, as in Vespa).
         */
        public boolean mayKeep(DocumentId id, DocumentType type, Clock clock) {
            return selection.isEmpty()
                   || selection.get().evaluate(DocumentSelectionContext.removed(id, type), clock) != Result.FALSE;
        }

        /** Whether this cluster stores documents of type {@code type}. */
        public boolean stores(String type) {
            return types.contains(type);
        }

        /** The bucket space documents of {@code type} live in. */
        public BucketSpace bucketSpace(String type) {
            return globalTypes.contains(type) ? BucketSpace.GLOBAL : BucketSpace.DEFAULT;
        }

    }

    private final DocumentTypes types;
    private final SelectionSchema selectionSchema;
    private final Map<String, Cluster> clusters;

    private ContentClusters(DocumentTypes types, List<Cluster> clusters) {
        this.selectionSchema = clusters.stream().filter(cluster -> !cluster.backend().followsReferences()).findFirst()
                                       .map(cluster -> SelectionSchema.withoutImports(SelectionSchema.of(types),
                                                                                      noImports(cluster.id())))
                                       .orElse(SelectionSchema.of(types));
        this.types = Objects.requireNonNull(types, "types");
        var byId = new LinkedHashMap<String, Cluster>();
        for (Cluster cluster : clusters)
            if (byId.put(cluster.id(), cluster) != null)
                throw new IllegalArgumentException("Duplicate content cluster id '" + cluster.id() + "'");
        this.clusters = byId;
    }

    /** Clusters over already created backends (tests, embedding). */
    public static ContentClusters of(DocumentTypes types, List<Cluster> clusters) {
        return new ContentClusters(types, clusters);
    }

    /**
     * Parses the application's schemas and creates a backend for every {@code <content>} cluster with the factory for
     * its engine.
     *
     * @throws ConfigException if a schema does not parse, a cluster names an unknown document type, or no factory
     *                         exists for a cluster's engine; backends already created are closed first
     */
    public static ContentClusters load(ApplicationPackage application,
                                       Map<ContentCluster.Engine, ContentBackendFactory> factories) {
        DocumentTypes types;
        try {
            types = SchemaParser.parseFiles(application.schemaFiles(), warning -> log.warn("{}", warning));
        }
        catch (RuntimeException e) {
            throw new ConfigException("Invalid schemas in " + application.directory() + ": " + e.getMessage(), e);
        }
        List<Cluster> clusters = new ArrayList<>();
        try {
            for (ContentCluster content : application.services().contents()) {
                for (ContentCluster.DocumentTypeRef document : content.documents())
                    if ( ! types.contains(document.type()))
                        throw new ConfigException("<content id='" + content.id() + "'> lists document type '"
                                                  + document.type() + "', but no schema defines it; "
                                                  + "schemas define " + types.all().stream().map(DocumentType::name).toList());
                ContentBackendFactory factory = factories.get(content.engine());
                if (factory == null)
                    throw new ConfigException("<content id='" + content.id() + "'> uses engine "
                                              + content.engine().name().toLowerCase(java.util.Locale.ROOT)
                                              + ", which this server does not provide; available: "
                                              + factories.keySet().stream().map(e -> e.name().toLowerCase(java.util.Locale.ROOT)).sorted().toList());
                Optional<DocumentSelection> selection = content.selection().map(text -> keptSelection(content, text, types));
                ContentBackend backend = factory.create(content, application, types);
                if (selection.isPresent() && !backend.followsReferences()) {
                    try {
                        selection.get().validate(SelectionSchema.withoutImports(SelectionSchema.of(types),
                                                                                noImports(content.id())));
                    }
                    catch (DocumentException e) {
                        closeQuietly(backend);
                        throw new ConfigException("<content id='" + content.id() + "'> has an invalid document "
                                                  + "selection: " + e.getMessage());
                    }
                }
                clusters.add(new Cluster(content.id(), backend,
                                         content.documents().stream().map(ContentCluster.DocumentTypeRef::type).toList(),
                                         content.documents().stream().filter(ContentCluster.DocumentTypeRef::global)
                                                .map(ContentCluster.DocumentTypeRef::type).toList(),
                                         selection, content.garbageCollectionInterval()));
            }
        }
        catch (RuntimeException e) {
            clusters.forEach(cluster -> closeQuietly(cluster.backend()));
            throw e;
        }
        return new ContentClusters(types, clusters);
    }

    private static String noImports(String clusterId) {
        return "content cluster '" + clusterId + "' does not read parent documents in selections: its engine does not"
               + " support imported fields";
    }

    /** A cluster's document selection, parsed and checked against the schemas, or a start-up error naming it. */
    private static DocumentSelection keptSelection(ContentCluster content, String text, DocumentTypes types) {
        try {
            DocumentSelection selection = DocumentSelection.parse(text);
            selection.validate(SelectionSchema.of(types));
            return selection;
        }
        catch (DocumentException e) {
            throw new ConfigException("<content id='" + content.id() + "'> has an invalid document selection: "
                                      + e.getMessage());
        }
    }

    /** Every document type of the application. */
    public DocumentTypes types() {
        return types;
    }

    /** The names selections and conditions may use: the application's document types and their fields. */
    public SelectionSchema selectionSchema() {
        return selectionSchema;
    }

    /**
     * The first storage failure a cluster's backend reports ({@link ContentBackend#storageFailure()}), naming the
     * cluster; empty while every backend can write. For the container's health.
     */
    public Optional<String> storageFailure() {
        for (Cluster cluster : clusters.values()) {
            Optional<String> failure = cluster.backend().storageFailure();
            if (failure.isPresent())
                return Optional.of("Content cluster '" + cluster.id() + "': " + failure.get());
        }
        return Optional.empty();
    }

    /** The clusters, in configuration order. */
    public List<Cluster> all() {
        return List.copyOf(clusters.values());
    }

    /** The cluster with this id, if any. */
    public Optional<Cluster> find(String id) {
        return Optional.ofNullable(clusters.get(id));
    }

    /**
     * The cluster named by a {@code cluster} parameter.
     *
     * @throws HttpStatusException 400 {@code Your Vespa deployment has no content cluster '<c>', only 'a', 'b'} — the
     *                             exact text {@code vespa visit} parses to discover clusters
     */
    public Cluster named(String id) {
        Cluster cluster = clusters.get(id);
        if (cluster == null)
            throw new HttpStatusException(HttpStatus.BAD_REQUEST_400,
                                          "Your Vespa deployment has no content cluster '" + id + "', only "
                                          + clusters.keySet().stream().map(c -> "'" + c + "'").collect(Collectors.joining(", ")));
        return cluster;
    }

    /**
     * The cluster a single-document operation on {@code type} goes to: the named one if {@code cluster} is given (it
     * must store the type), otherwise the first that stores it.
     *
     * @throws HttpStatusException 400 if the type does not exist, no cluster stores it, or the named cluster does not
     */
    public Cluster forDocumentType(String type, Optional<String> cluster) {
        if ( ! types.contains(type))
            throw new HttpStatusException(HttpStatus.BAD_REQUEST_400, "Document type " + type + " does not exist");
        if (cluster.isPresent()) {
            Cluster named = named(cluster.get());
            if ( ! named.stores(type))
                throw noSuchType(type, named);
            return named;
        }
        for (Cluster candidate : clusters.values())
            if (candidate.stores(type))
                return candidate;
        throw new HttpStatusException(HttpStatus.BAD_REQUEST_400,
                                      "Document type " + type + " is not stored in any content cluster; clusters are "
                                      + clusters.keySet().stream().map(c -> "'" + c + "'").collect(Collectors.joining(", ")));
    }

    /**
     * The content clusters a write of a document of {@code type} goes to: the one {@code cluster} names, else, as
     * Vespa's default route does, every cluster that stores the type, in configuration order.
     *
     * @throws HttpStatusException 400 as {@link #forDocumentType}
     */
    public List<Cluster> forWrite(String type, Optional<String> cluster) {
        Cluster first = forDocumentType(type, cluster);
        if (cluster.isPresent())
            return List.of(first);
        List<Cluster> all = new ArrayList<>();
        for (Cluster candidate : clusters.values())
            if (candidate.stores(type))
                all.add(candidate);
        return all;
    }

    /**
     * The content cluster a write's {@code route} parameter names, or empty for the default route. Vespa generates
     * these routes to a content cluster {@code NAME}: {@code NAME}, {@code NAME-index}, {@code NAME-direct},
     * {@code storage/cluster.NAME} and the hop {@code [Content:cluster=NAME]}; {@code default}, {@code default-get}
     * and {@code indexing} are its default route, which Sluice takes for writes too.
     *
     * @throws HttpStatusException 400 naming the route if it names anything else (a route Sluice cannot follow)
     */
    public Optional<String> routed(String route) {
        String trimmed = route.trim();
        if (trimmed.equals("default") || trimmed.equals("default-get") || trimmed.equals("indexing"))
            return Optional.empty();
        if (clusters.containsKey(trimmed))
            return Optional.of(trimmed);
        Optional<String> named = contentHop(trimmed)
                .or(() -> suffixed(trimmed, "", "-index"))
                .or(() -> suffixed(trimmed, "", "-direct"))
                .or(() -> suffixed(trimmed, "storage/cluster.", ""));
        if (named.isPresent() && clusters.containsKey(named.get()))
            return named;
        throw new HttpStatusException(HttpStatus.BAD_REQUEST_400,
                                      "Route '" + route + "' does not name a content cluster: Sluice routes writes by "
                                      + "'default', a content cluster's name or [Content:cluster=<name>]; content "
                                      + "clusters are " + clusters.keySet().stream().map(c -> "'" + c + "'")
                                                                  .collect(Collectors.joining(", ")));
    }

    /** NAME of {@code [Content:cluster=NAME]}, also with Vespa's {@code ;clusterconfigid=...} parameter. */
    private static Optional<String> contentHop(String route) {
        String prefix = "[Content:";
        if ( ! route.startsWith(prefix) || ! route.endsWith("]"))
            return Optional.empty();
        String cluster = null;
        for (String parameter : route.substring(prefix.length(), route.length() - 1).split(";")) {
            int equals = parameter.indexOf('=');
            String key = equals < 0 ? parameter : parameter.substring(0, equals);
            if (key.equals("cluster")) cluster = parameter.substring(equals + 1);
            else if ( ! key.equals("clusterconfigid")) return Optional.empty();
        }
        return Optional.ofNullable(cluster);
    }

    private static Optional<String> suffixed(String route, String prefix, String suffix) {
        if (route.length() > prefix.length() + suffix.length() && route.startsWith(prefix) && route.endsWith(suffix))
            return Optional.of(route.substring(prefix.length(), route.length() - suffix.length()));
        return Optional.empty();
    }

    /** 400 {@code There is no document type '<t>' in cluster '<c>', only '<t1>', ...}. */
    public static HttpStatusException noSuchType(String type, Cluster cluster) {
        return new HttpStatusException(HttpStatus.BAD_REQUEST_400,
                                       "There is no document type '" + type + "' in cluster '" + cluster.id() + "', only "
                                       + cluster.types().stream().map(t -> "'" + t + "'").collect(Collectors.joining(", ")));
    }

    /** Closes every backend; a failure to close one is logged and does not stop the others. */
    @Override
    public void close() {
        clusters.values().forEach(cluster -> closeQuietly(cluster.backend()));
    }

    private static void closeQuietly(ContentBackend backend) {
        try {
            backend.close();
        }
        catch (RuntimeException e) {
            log.warn("Closing content backend {} failed", backend, e);
        }
    }

}
