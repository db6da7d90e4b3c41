package io.sluice.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ApplicationPackageLoaderTest {

    private static final Path SHIPPED = Path.of("..", "apps");

    @TempDir
    Path dir;

    @Test
    void shippedDefaultPackage_loadsWithoutWarnings() {
        ApplicationPackage app = ApplicationPackageLoader.load(SHIPPED.resolve("default"));
        ContainerCluster container = app.services().containers().get(0);
        assertEquals(List.of(), app.warnings());
        assertEquals(List.of(ServerConfig.cleartext("default", 8080)), container.servers());
        assertEquals(Optional.of(DocumentApiConfig.defaults()), container.documentApi());
        assertEquals(new ContentCluster("content",
                                        List.of(new ContentCluster.DocumentTypeRef("music", ContentCluster.Mode.INDEX, false)),
                                        1, List.of(new ContentCluster.Node("node1", 0)),
                                        ContentCluster.Engine.EMBEDDED, Optional.empty(), Map.of()),
                     app.services().content("content").orElseThrow());
        assertEquals(List.of(app.directory().resolve("schemas/music.sd")), app.schemaFiles());
    }

    @Test
    void shippedTlsPackage_loadsOneMutualTlsServerOn8443() {
        ApplicationPackage app = ApplicationPackageLoader.load(SHIPPED.resolve("tls"));
        Path tls = app.directory().resolve("tls");
        ServerConfig server = app.services().containers().get(0).servers().get(0);
        assertEquals(1, app.services().containers().get(0).servers().size());
        assertEquals(new ServerConfig("tls", 8443,
                                      Optional.of(new SslConfig(tls.resolve("key.pem"), tls.resolve("cert.pem"),
                                                                Optional.of(tls.resolve("ca.pem")),
                                                                SslConfig.ClientAuthentication.NEED, List.of(), List.of())),
                                      ConnectorConfig.defaults()),
                     server);
        // The certificates are made by make-certs.sh and not committed: their absence is the only acceptable warning.
        assertTrue(app.warnings().stream().allMatch(warning -> warning.endsWith("does not exist (yet)")), app.warnings()::toString);
    }

    @Test
    void missingDirectory_failsNamingPath() {
        Path missing = dir.resolve("nope");
        ConfigException e = assertThrows(ConfigException.class, () -> ApplicationPackageLoader.load(missing));
        assertEquals("Application package " + missing.toAbsolutePath() + " is not a directory", e.getMessage());
    }

    @Test
    void missingServicesXml_failsNamingPath() {
        ConfigException e = assertThrows(ConfigException.class, () -> ApplicationPackageLoader.load(dir));
        Path root = dir.toAbsolutePath();
        assertEquals("Application package " + root + " has no services.xml (looked for " + root.resolve("services.xml") + ")",
                     e.getMessage());
    }

    @Test
    void directory_isAbsoluteAndNormalized() {
        TestPackages.write(dir.resolve("app"), "<services><container/></services>");
        ApplicationPackage app = ApplicationPackageLoader.load(dir.resolve("app").resolve("..").resolve("app"));
        assertEquals(dir.toAbsolutePath().resolve("app"), app.directory());
    }

    @Test
    void schemaFiles_areSortedByNameAndOnlySd() throws IOException {
        TestPackages.write(dir, "<services><container/></services>", "zebra", "album", "music");
        Files.writeString(dir.resolve("schemas/notes.txt"), "not a schema");
        Files.createDirectories(dir.resolve("schemas/music"));
        ApplicationPackage app = ApplicationPackageLoader.load(dir);
        Path schemas = dir.toAbsolutePath().resolve("schemas");
        assertEquals(List.of(schemas.resolve("album.sd"), schemas.resolve("music.sd"), schemas.resolve("zebra.sd")),
                     app.schemaFiles());
    }

    @Test
    void noSchemasDirectory_listsNoSchemas() {
        assertEquals(List.of(), TestPackages.load(dir, "<services><container/></services>").schemaFiles());
    }

    @Test
    void searchDefinitionsDirectory_warnsItIsNotRead() throws IOException {
        Files.createDirectories(dir.resolve("searchdefinitions"));
        ApplicationPackage app = TestPackages.load(dir, "<services><container/></services>");
        assertEquals(List.of("searchdefinitions/: not read, Sluice reads schemas from schemas/"), app.warnings());
    }

    @Test
    void malformedXml_failsNamingLine() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> TestPackages.load(dir, "<services>\n<container>\n</services>\n"));
        assertTrue(e.getMessage().startsWith("services.xml:3: malformed XML: "), e.getMessage());
    }

    @Test
    void externalEntity_isRefused() throws IOException {
        Path secret = Files.writeString(dir.resolve("secret.txt"), "top secret");
        String services = "<?xml version=\"1.0\"?>\n<!DOCTYPE services [<!ENTITY x SYSTEM \"" + secret.toUri() + "\">]>\n"
                          + "<services><container id=\"&x;\"/></services>\n";
        ConfigException e = assertThrows(ConfigException.class, () -> TestPackages.load(dir, services));
        assertFalse(e.getMessage().contains("top secret"), e.getMessage());
    }

    @Test
    void doctype_isRefused() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> TestPackages.load(dir, "<!DOCTYPE services>\n<services><container/></services>\n"));
        assertEquals("services.xml:1: DOCTYPE declarations are not allowed", e.getMessage());
    }

    @Test
    void wrongRootElement_failsNamingIt() {
        ConfigException e = assertThrows(ConfigException.class, () -> TestPackages.load(dir, "<container/>"));
        assertEquals("services.xml:1: the root element must be <services>, not <container>", e.getMessage());
    }

    @Test
    void noContainer_fails() {
        ConfigException e = assertThrows(ConfigException.class, () -> TestPackages.load(dir, "<services/>"));
        assertEquals("services.xml:1: <services>: services.xml must have at least one <container>", e.getMessage());
    }

    @Test
    void unsupportedVersion_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> TestPackages.load(dir, "<services version=\"2.0\"><container/></services>"));
        assertEquals("services.xml:1: <services> version: '2.0' is not 1.0", e.getMessage());
    }

    @Test
    void secondContainer_warnsItDoesNotRun() {
        ApplicationPackage app = TestPackages.load(dir, """
                <services>
                  <container id="a"/>
                  <container id="b"><http><server id="b" port="9090"/></http></container>
                </services>
                """);
        assertEquals(List.of("services.xml:3: <container id='b'> is not run: Sluice runs one container, "
                             + "<container id='a'>, the first"),
                     app.warnings());
    }

    @Test
    void containerWithDocumentApi_isServedWithWarningAboutTheOthers() {
        ApplicationPackage app = TestPackages.load(dir, """
                <services>
                  <container id="query"><http><server id="q" port="9090"/></http></container>
                  <container id="feed"><document-api/></container>
                </services>
                """);
        assertEquals("feed", app.services().served().id());
        assertEquals(List.of("services.xml:2: <container id='query'> is not run: Sluice runs one container, "
                             + "<container id='feed'>, the one with <document-api>"),
                     app.warnings());
    }

    @Test
    void admin_warnsNoEffect() {
        ApplicationPackage app = TestPackages.load(dir, "<services>\n<admin version=\"2.0\"/>\n<container/>\n</services>");
        assertEquals(List.of("services.xml:2: <admin> in <services> has no effect in Sluice (there are no admin services), ignored"),
                     app.warnings());
    }

    @Test
    void duplicateContentId_fails() {
        String content = "<content id=\"c\"><documents><document type=\"music\" mode=\"index\"/></documents></content>\n";
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> TestPackages.load(dir, "<services>\n<container/>\n" + content + content + "</services>",
                                                                 "music"));
        assertEquals("services.xml:1: <services>: Duplicate <content> id 'c'", e.getMessage());
    }

}
