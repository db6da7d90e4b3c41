package io.sluice.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one {@code <content>} element into a {@link ContentCluster}, including Sluice's {@code <engine>} extension
 * (see config/README.md).
 */
final class ContentReader {

    static final String DEFAULT_ID = "content";
    static final String DATA_DIRECTORY = "data-directory";

    /** Vespa content features that Sluice, a single process, does not have. */
    private static final Set<String> UNSUPPORTED = Set.of(
            "group", "tuning", "search", "dispatch", "coverage-policy", "config", "document-processing", "experimental");

    private final Diagnostics diagnostics;
    private final Path directory;
    private final Set<String> schemas;

    /**
     * @param directory the application package, against which a relative data directory is resolved
     * @param schemas   the names of the package's schemas ({@code schemas/<name>.sd}); every document type needs one
     */
    ContentReader(Diagnostics diagnostics, Path directory, Set<String> schemas) {
        this.diagnostics = diagnostics;
        this.directory = directory;
        this.schemas = Set.copyOf(schemas);
    }

    ContentCluster read(XmlElement content) {
        diagnostics.checkAttributes(content, Set.of("id", "version"), Set.of());
        ApplicationPackageLoader.checkVersion(content, diagnostics);
        String id = diagnostics.nonEmptyAttribute(content, "id").orElse(DEFAULT_ID);
        List<ContentCluster.DocumentTypeRef> documents = new ArrayList<>();
        Optional<String> selection = Optional.empty();
        Optional<java.time.Duration> garbageCollection = Optional.empty();
        Optional<Integer> minRedundancy = Optional.empty();
        Optional<XmlElement> redundancy = Optional.empty();
        Optional<XmlElement> minRedundancyElement = Optional.empty();
        Optional<XmlElement> nodesElement = Optional.empty();
        List<ContentCluster.Node> nodes = new ArrayList<>();
        EngineChoice engine = EngineChoice.DEFAULT;
        Set<String> seen = new HashSet<>();
        for (XmlElement child : content.children()) {
            switch (child.name()) {
                case "documents":
                    diagnostics.once(child, content, seen);
                    Documents read = documents(child);
                    documents.addAll(read.types());
                    selection = read.selection();
                    garbageCollection = read.garbageCollectionInterval();
                    break;
                case "min-redundancy":
                    diagnostics.once(child, content, seen);
                    diagnostics.checkAttributes(child, Set.of(), Set.of());
                    minRedundancy = Optional.of(diagnostics.text(child, ValueType.POSITIVE_INT));
                    minRedundancyElement = Optional.of(child);
                    break;
                case "redundancy":
                    diagnostics.once(child, content, seen);
                    diagnostics.checkAttributes(child, Set.of(), Set.of("reply-after"));
                    diagnostics.text(child, ValueType.POSITIVE_INT);
                    redundancy = Optional.of(child);
                    break;
                case "nodes":
                    diagnostics.once(child, content, seen);
                    nodes.addAll(nodes(child));
                    nodesElement = Optional.of(child);
                    break;
                case "engine":
                    diagnostics.once(child, content, seen);
                    engine = engine(child);
                    break;
                default:
                    if (UNSUPPORTED.contains(child.name())) diagnostics.unsupported(child, content);
                    else diagnostics.unknown(child, content);
            }
        }
        int copies = redundancy(content, minRedundancy, redundancy);
        EngineChoice chosen = engine;
        if (chosen.engine() != ContentCluster.Engine.CASSANDRA) {
            String engineName = chosen.engine().name().toLowerCase(java.util.Locale.ROOT);
            if (copies > 1)
                diagnostics.warn(minRedundancyElement.isPresent() ? minRedundancyElement.get() : redundancy.orElse(content),
                                 content.describe() + " asks for " + copies + " copies, but the " + engineName
                                 + " engine keeps one copy in this process, ignored (it changes what survives a lost "
                                 + "disk, not what is stored or served)");
        }
        if (nodes.size() > 1)
            diagnostics.warn(nodesElement.orElse(content),
                             content.describe() + " lists " + nodes.size() + " <node>s, but Sluice serves the cluster "
                             + "from this one process (its engine decides where the data lives), ignored");
        Optional<String> kept = selection;
        Optional<java.time.Duration> collected = garbageCollection;
        return diagnostics.construct(content, () -> new ContentCluster(
                id, documents, copies, nodes, chosen.engine(), chosen.dataDirectory(), chosen.options(), kept, collected));
    }

    /** {@code <min-redundancy>} wins over the older {@code <redundancy>}; without either, one copy. */
    private int redundancy(XmlElement content, Optional<Integer> minRedundancy, Optional<XmlElement> redundancy) {
        if (redundancy.isEmpty())
            return minRedundancy.orElse(1);
        if (minRedundancy.isPresent()) {
            diagnostics.warn(redundancy.get(), "<redundancy> in " + content.describe()
                                               + " ignored: <min-redundancy> takes precedence");
            return minRedundancy.get();
        }
        return diagnostics.text(redundancy.get(), ValueType.POSITIVE_INT);
    }

    /** What {@code <documents>} says: the types, the selection of the documents kept, and garbage collection. */
    private record Documents(List<ContentCluster.DocumentTypeRef> types, Optional<String> selection,
                             Optional<java.time.Duration> garbageCollectionInterval) { }

    /**
     * The types, and the cluster's selection as Vespa composes it: each {@code <document>}'s own {@code selection}
     * applies to its type ({@code (type and (selection))}, a type without one keeps all its documents), and the
     * {@code selection} of {@code <documents>} applies to them all.
     */
    private Documents documents(XmlElement documents) {
        diagnostics.checkAttributes(documents, Set.of("garbage-collection", "garbage-collection-interval", "selection"), Set.of());
        Optional<String> common = selection(documents);
        boolean garbageCollection = diagnostics.attribute(documents, "garbage-collection", ValueType.BOOLEAN).orElse(false);
        Optional<java.time.Duration> interval = diagnostics.attribute(documents, "garbage-collection-interval",
                                                                      ValueType.POSITIVE_SECONDS);
        if (interval.isPresent() && ! garbageCollection)
            diagnostics.warn(documents, "attribute 'garbage-collection-interval' of <documents> has no effect without "
                                        + "garbage-collection='true', ignored");
        List<ContentCluster.DocumentTypeRef> types = new ArrayList<>();
        List<String> perType = new ArrayList<>();
        boolean anyOwn = false;
        for (XmlElement child : documents.children()) {
            if (child.name().equals("document")) {
                ContentCluster.DocumentTypeRef type = document(child);
                types.add(type);
                Optional<String> own = selection(child);
                anyOwn |= own.isPresent();
                perType.add(own.map(text -> "(" + type.type() + " and (" + text + "))").orElse(type.type()));
            }
            else if (child.name().equals("document-processing")) diagnostics.unsupported(child, documents);
            else diagnostics.unknown(child, documents);
        }
        List<String> parts = new ArrayList<>();
        common.ifPresent(text -> parts.add("(" + text + ")"));
        if (anyOwn)
            parts.add("(" + String.join(" or ", perType) + ")");
        Optional<String> selection = parts.isEmpty() ? Optional.empty() : Optional.of(String.join(" and ", parts));
        if (garbageCollection && selection.isEmpty())
            diagnostics.warn(documents, "garbage-collection='true' of <documents> without a document selection removes "
                                        + "nothing, ignored");
        return new Documents(types, selection, garbageCollection && selection.isPresent()
                                               ? Optional.of(interval.orElse(ContentCluster.DEFAULT_GARBAGE_COLLECTION_INTERVAL))
                                               : Optional.empty());
    }

    /** A non-blank {@code selection} attribute; it is parsed and checked against the schemas when the server starts. */
    private Optional<String> selection(XmlElement element) {
        Optional<String> text = element.attribute("selection");
        if (text.isPresent() && text.get().isBlank())
            throw diagnostics.error(element, "attribute 'selection' of " + element.describe() + " is empty");
        return text.map(String::trim);
    }

    private ContentCluster.DocumentTypeRef document(XmlElement document) {
        diagnostics.checkAttributes(document, Set.of("type", "mode", "global", "selection"), Set.of());
        for (XmlElement child : document.children())
            diagnostics.unknown(child, document);
        String type = diagnostics.requiredAttribute(document, "type");
        String modeName = diagnostics.requiredAttribute(document, "mode");
        ContentCluster.Mode mode;
        switch (modeName) {
            case "index": mode = ContentCluster.Mode.INDEX; break;
            case "store-only": mode = ContentCluster.Mode.STORE_ONLY; break;
            case "streaming": mode = ContentCluster.Mode.STREAMING; break;
            default: throw diagnostics.error(document, document.describe() + " mode: '" + modeName
                                                       + "' is not one of index, store-only, streaming");
        }
        boolean global = diagnostics.attribute(document, "global", ValueType.BOOLEAN).orElse(false);
        if ( ! schemas.contains(type))
            throw diagnostics.error(document, document.describe() + ": no schema for type '" + type
                                              + "' (expected schemas/" + type + ".sd)");
        return diagnostics.construct(document, () -> new ContentCluster.DocumentTypeRef(type, mode, global));
    }

    private List<ContentCluster.Node> nodes(XmlElement nodes) {
        diagnostics.checkAttributes(nodes, Set.of(), Set.of("count", "flavor", "required", "exclusive", "docker-image",
                                                            "groups", "group-size"));
        List<ContentCluster.Node> result = new ArrayList<>();
        for (XmlElement child : nodes.children()) {
            if (child.name().equals("resources")) {
                diagnostics.noEffect(child, nodes, "Sluice runs in the resources of its own process");
                continue;
            }
            if ( ! child.name().equals("node")) {
                diagnostics.unknown(child, nodes);
                continue;
            }
            diagnostics.checkAttributes(child, Set.of("hostalias", "distribution-key"), Set.of("capacity", "baseport"));
            for (XmlElement grandChild : child.children())
                diagnostics.unsupported(grandChild, child);
            String hostAlias = diagnostics.requiredAttribute(child, "hostalias");
            diagnostics.requiredAttribute(child, "distribution-key");
            int key = diagnostics.attribute(child, "distribution-key", ValueType.NON_NEGATIVE_INT).orElseThrow();
            result.add(diagnostics.construct(child, () -> new ContentCluster.Node(hostAlias, key)));
        }
        return result;
    }

    /** {@code <engine>} holds exactly one element naming the backend; its attributes and text children are options. */
    private EngineChoice engine(XmlElement engine) {
        diagnostics.checkAttributes(engine, Set.of(), Set.of());
        if (engine.children().size() != 1)
            throw diagnostics.error(engine, "<engine> needs exactly one of <embedded/>, <proton/>, <memory/>, <cassandra/>, "
                                            + "but has " + engine.children().size() + " elements");
        XmlElement choice = engine.children().get(0);
        ContentCluster.Engine kind;
        switch (choice.name()) {
            case "proton":
            case "embedded": kind = ContentCluster.Engine.EMBEDDED; break;
            case "memory": kind = ContentCluster.Engine.MEMORY; break;
            case "cassandra": kind = ContentCluster.Engine.CASSANDRA; break;
            default: throw diagnostics.error(choice, "<engine>: <" + choice.name()
                                                     + "> is not one of <embedded/>, <proton/>, <memory/>, <cassandra/>");
        }
        Map<String, String> options = new LinkedHashMap<>();
        choice.attributes().forEach((name, value) -> options.put(name, value.trim()));
        for (XmlElement option : choice.children()) {
            if (choice.name().equals("proton")) {
                // Vespa's proton settings (searchable-copies, tuning, flush-on-shutdown, visibility-delay, ...) tune
                // its search engine's indexes, memory and disk use; none changes which documents are stored.
                diagnostics.warn(option, "<" + option.name() + "> in <proton> tunes Vespa's search engine and has no "
                                         + "effect on Sluice's embedded engine, ignored");
                continue;
            }
            if ( ! option.children().isEmpty()) {
                diagnostics.unsupported(option, choice);
                continue;
            }
            diagnostics.checkAttributes(option, Set.of(), Set.of());
            if (options.put(option.name(), option.text().trim()) != null)
                throw diagnostics.error(option, "<" + choice.name() + "> sets option '" + option.name() + "' twice");
        }
        Optional<Path> dataDirectory = Optional.ofNullable(options.remove(DATA_DIRECTORY)).map(name -> {
            if (name.isBlank()) throw diagnostics.error(choice, "<" + choice.name() + "> " + DATA_DIRECTORY + " must not be empty");
            return directory.resolve(name.trim()).normalize();
        });
        if (dataDirectory.isPresent() && kind != ContentCluster.Engine.EMBEDDED) {
            diagnostics.warn(choice, DATA_DIRECTORY + " of <" + choice.name() + "> has no effect: only the embedded engine "
                                     + "keeps files, ignored");
            dataDirectory = Optional.empty();
        }
        return new EngineChoice(kind, dataDirectory, options);
    }

    private record EngineChoice(ContentCluster.Engine engine, Optional<Path> dataDirectory, Map<String, String> options) {
        static final EngineChoice DEFAULT = new EngineChoice(ContentCluster.Engine.EMBEDDED, Optional.empty(), Map.of());
    }

}
