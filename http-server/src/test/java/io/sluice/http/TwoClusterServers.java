package io.sluice.http;

import io.sluice.config.ApplicationPackage;
import io.sluice.config.ApplicationPackageLoader;
import io.sluice.config.ContainerCluster;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Real Sluice servers on loopback for the command line's end-to-end tests, each serving an application with two
 * in-memory content clusters: {@code music} (document types {@code music} and the global {@code label}) and
 * {@code books} (type {@code book}), with the schemas a test gives. {@link #close()} stops every server started.
 */
final class TwoClusterServers implements AutoCloseable {

    static final String SERVICES = """
            <services version="1.0">
              <container id="default" version="1.0">
                <http><server id="plain" port="0"/></http>
                <document-api/>
              </container>
              <content id="music" version="1.0">
                <min-redundancy>1</min-redundancy>
                <documents>
                  <document type="music" mode="index"/>
                  <document type="label" mode="index" global="true"/>
                </documents>
                <nodes><node hostalias="node1" distribution-key="0"/></nodes>
                <engine><memory/></engine>
              </content>
              <content id="books" version="1.0">
                <min-redundancy>1</min-redundancy>
                <documents><document type="book" mode="index"/></documents>
                <nodes><node hostalias="node1" distribution-key="0"/></nodes>
                <engine><memory/></engine>
              </content>
            </services>
            """;

    private final Path directory;
    private final Map<String, String> schemas;
    private final List<SluiceServer> servers = new ArrayList<>();

    /** Servers whose applications and data live under {@code directory}, with {@code schemas} (type → schema text). */
    TwoClusterServers(Path directory, Map<String, String> schemas) {
        this.directory = directory;
        this.schemas = Map.copyOf(schemas);
    }

    /** Starts a server whose files are under {@code name}, on a free loopback port; returns its cleartext URI. */
    URI start(String name) throws IOException {
        Path application = directory.resolve(name).resolve("app");
        Files.createDirectories(application.resolve("schemas"));
        for (var schema : schemas.entrySet())
            Files.writeString(application.resolve("schemas").resolve(schema.getKey() + ".sd"), schema.getValue());
        Files.writeString(application.resolve("services.xml"), SERVICES);
        ApplicationPackage loaded = ApplicationPackageLoader.load(application);
        ContainerCluster cluster = loaded.services().containers().get(0);
        SluiceServer.Builder builder = SluiceServer.builder(cluster).host("127.0.0.1");
        var options = new LaunchOptions(application, OptionalInt.empty(), Optional.of(directory.resolve(name).resolve("data")));
        DocumentApi.mount(builder, loaded, cluster, Engines.all(options));
        SluiceServer server = builder.build();
        server.start();
        servers.add(server);
        return server.uri("plain");
    }

    @Override
    public void close() {
        for (SluiceServer server : servers) server.stop();
    }

}
