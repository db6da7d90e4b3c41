package io.sluice.config;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;

/**
 * The root of {@code services.xml}: container clusters and content clusters.
 *
 * @param containers the {@code <container>} clusters; Sluice runs one of them, {@link #served()}
 * @param contents   the {@code <content>} clusters, ids unique
 */
public record Services(List<ContainerCluster> containers, List<ContentCluster> contents) {

    public Services {
        containers = List.copyOf(containers);
        contents = List.copyOf(contents);
        if (containers.isEmpty())
            throw new ConfigException("services.xml must have at least one <container>");
        var ids = new HashSet<String>();
        for (ContentCluster content : contents)
            if ( ! ids.add(content.id()))
                throw new ConfigException("Duplicate <content> id '" + content.id() + "'");
    }

    /**
     * The container cluster Sluice runs: the first with {@code <document-api>}, or the first of all if none has one.
     * Vespa runs every cluster; a package whose query container comes first would otherwise answer 404 on /document/v1.
     */
    public ContainerCluster served() {
        return containers.stream().filter(c -> c.documentApi().isPresent()).findFirst().orElse(containers.get(0));
    }

    /** The content cluster with the given id, if any. */
    public Optional<ContentCluster> content(String id) {
        return contents.stream().filter(c -> c.id().equals(id)).findFirst();
    }

}
