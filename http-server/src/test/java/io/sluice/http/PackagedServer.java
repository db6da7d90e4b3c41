package io.sluice.http;

import io.sluice.config.ApplicationPackage;
import io.sluice.config.ApplicationPackageLoader;
import io.sluice.config.ContainerCluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A Sluice server started as {@code serve} starts one, from an application package written to a directory: a
 * cleartext server and a TLS server demanding client certificates from the {@link TestPki}, {@code /document/v1}, and
 * one content cluster {@value Corpus#CLUSTER} of {@link Corpus#SCHEMA} documents on the chosen engine; only bound to
 * loopback, on ports the OS picks.
 */
final class PackagedServer implements AutoCloseable {

    /** The content engines a test can choose, as {@code <engine>} names them. */
    enum Engine { EMBEDDED, MEMORY }

    private final SluiceServer server;

    private PackagedServer(SluiceServer server) {
        this.server = server;
    }

    /** Writes the package to {@code directory}/app, keeps embedded data in {@code directory}/data, and starts. */
    static PackagedServer start(Path directory, TestPki pki, Engine engine) {
        return start(directory, pki, "<" + engine.name().toLowerCase(java.util.Locale.ROOT) + "/>", 1);
    }

    /** As {@link #start(Path, TestPki, Engine)}, with {@code engine} inside {@code <engine>} and that redundancy. */
    static PackagedServer start(Path directory, TestPki pki, String engine, int redundancy) {
        Path application = directory.resolve("app");
        try {
            Files.createDirectories(application.resolve("schemas"));
            Files.writeString(application.resolve("schemas").resolve("music.sd"), Corpus.SCHEMA);
            Files.writeString(application.resolve("services.xml"), services(pki, engine, redundancy));
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ApplicationPackage loaded = ApplicationPackageLoader.load(application);
        ContainerCluster cluster = loaded.services().served();
        SluiceServer.Builder builder = SluiceServer.builder(cluster).host("127.0.0.1");
        var options = new LaunchOptions(application, OptionalInt.empty(), Optional.of(directory.resolve("data")));
        DocumentApi.mount(builder, loaded, cluster, Engines.all(options));
        SluiceServer server = builder.build();
        server.start();
        return new PackagedServer(server);
    }

    private static String services(TestPki pki, String engine, int redundancy) {
        return "<services version=\"1.0\">\n"
               + "  <container id=\"default\" version=\"1.0\">\n"
               + "    <http>\n"
               + "      <server id=\"plain\" port=\"0\"/>\n"
               + "      <server id=\"tls\" port=\"0\">\n"
               + "        <ssl>\n"
               + "          <private-key-file>" + pki.serverKeyFile() + "</private-key-file>\n"
               + "          <certificate-file>" + pki.serverCertificateFile() + "</certificate-file>\n"
               + "          <ca-certificates-file>" + pki.caFile() + "</ca-certificates-file>\n"
               + "          <client-authentication>need</client-authentication>\n"
               + "        </ssl>\n"
               + "      </server>\n"
               + "    </http>\n"
               + "    <document-api/>\n"
               + "  </container>\n"
               + "  <content id=\"" + Corpus.CLUSTER + "\" version=\"1.0\">\n"
               + "    <min-redundancy>" + redundancy + "</min-redundancy>\n"
               + "    <documents><document type=\"music\" mode=\"index\"/></documents>\n"
               + "    <nodes><node hostalias=\"node1\" distribution-key=\"0\"/></nodes>\n"
               + "    <engine>" + engine + "</engine>\n"
               + "  </content>\n"
               + "</services>\n";
    }

    /** {@code http://127.0.0.1:port/}: HTTP/1.1 and h2c. */
    URI plain() {
        return server.uri("plain");
    }

    /** {@code https://127.0.0.1:port/}: h2 and HTTP/1.1 over TLS, client certificate required. */
    URI tls() {
        return server.uri("tls");
    }

    @Override
    public void close() {
        server.stop();
    }

}
