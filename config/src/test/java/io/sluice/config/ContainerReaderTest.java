package io.sluice.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static io.sluice.config.TestPackages.container;
import static io.sluice.config.TestPackages.loadContainer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContainerReaderTest {

    @TempDir
    Path dir;

    @Test
    void noHttp_listensCleartextOn8080WithVespaConnectorDefaults() {
        ContainerCluster container = container(dir, "");
        assertEquals(List.of(new ServerConfig("default", 8080, Optional.empty(), ConnectorConfig.defaults())),
                     container.servers());
    }

    @Test
    void emptyHttp_listensCleartextOn8080() {
        assertEquals(List.of(ServerConfig.cleartext("default", 8080)), container(dir, "<http/>\n").servers());
    }

    @Test
    void noDocumentApiElement_documentApiIsEmpty() {
        assertEquals(Optional.empty(), container(dir, "").documentApi());
    }

    @Test
    void documentApiElement_enablesDocumentApiWithDefaults() {
        assertEquals(Optional.of(DocumentApiConfig.defaults()), container(dir, "<document-api/>\n").documentApi());
    }

    @Test
    void servers_keepIdsAndPortsInOrder() {
        ContainerCluster container = container(dir, """
                <http>
                  <server id="plain" port="8080"/>
                  <server id="other" port="0"/>
                </http>
                """);
        assertEquals(List.of(ServerConfig.cleartext("plain", 8080), ServerConfig.cleartext("other", 0)),
                     container.servers());
    }

    @Test
    void serverWithoutPort_listensOn8080() {
        assertEquals(8080, container(dir, "<http><server id=\"a\"/></http>\n").servers().get(0).port());
    }

    @Test
    void portNotANumber_failsNamingFileLineElementAndValue() {
        ConfigException e = assertThrows(ConfigException.class, () -> container(dir, """
                <http>
                  <server id="plain" port="abc"/>
                </http>
                """));
        assertEquals("services.xml:4: <server id='plain'> port: 'abc' is not a valid port", e.getMessage());
    }

    @Test
    void portAbove65535_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> container(dir, "<http><server id=\"plain\" port=\"65536\"/></http>\n"));
        assertEquals("services.xml:3: <server id='plain'> port: '65536' is not a valid port", e.getMessage());
    }

    @Test
    void serverWithoutId_failsNamingElement() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> container(dir, "<http><server port=\"8080\"/></http>\n"));
        assertEquals("services.xml:3: <server> needs a non-empty 'id' attribute", e.getMessage());
    }

    @Test
    void duplicatePort_failsNamingContainerAndPort() {
        ConfigException e = assertThrows(ConfigException.class, () -> container(dir, """
                <http>
                  <server id="a" port="8080"/>
                  <server id="b" port="8080"/>
                </http>
                """));
        assertEquals("services.xml:2: Duplicate <server> port 8080 in <container id='default'>",
                     e.getMessage());
    }

    @Test
    void handler_classDefaultsToIdAndKeepsBindings() {
        ContainerCluster container = container(dir, """
                <handler id="com.example.MyHandler">
                  <binding>http://*/my/*</binding>
                  <binding>http://*:8080/other</binding>
                </handler>
                """);
        assertEquals(List.of(new HandlerConfig("com.example.MyHandler", "com.example.MyHandler",
                                               List.of("http://*/my/*", "http://*:8080/other"), "services.xml:3")),
                     container.handlers());
    }

    @Test
    void handler_usesClassAttributeWhenPresent() {
        ContainerCluster container = container(dir, "<handler id=\"h\" class=\"com.example.H\"><binding>http://*/h</binding></handler>\n");
        assertEquals("com.example.H", container.handlers().get(0).className());
    }

    @Test
    void handlerBindingMalformed_failsNamingLineAndBinding() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> container(dir, "<handler id=\"h\"><binding>/my/path</binding></handler>\n"));
        assertEquals("services.xml:3: <handler id='h'> binding '/my/path' is not of the form "
                     + "scheme://host[:port]/path", e.getMessage());
    }

    @Test
    void noAccessLog_isDisabled() {
        assertEquals(AccessLogConfig.disabled(), container(dir, "").accessLog());
    }

    @Test
    void accessLogJsonWithFile_isEnabledWithFileInPackage() {
        ContainerCluster container = container(dir, "<accesslog type=\"json\" file=\"logs/access.json\"/>\n");
        assertEquals(new AccessLogConfig(true, Optional.of(dir.toAbsolutePath().resolve("logs/access.json"))),
                     container.accessLog());
    }

    @Test
    void accessLogWithoutFile_writesToStandardOutput() {
        assertEquals(new AccessLogConfig(true, Optional.empty()), container(dir, "<accesslog type=\"json\"/>\n").accessLog());
    }

    @Test
    void accessLogDisabled_isDisabled() {
        assertEquals(AccessLogConfig.disabled(), container(dir, "<accesslog type=\"disabled\"/>\n").accessLog());
    }

    @Test
    void accessLogAbsoluteFile_isKept() {
        Path file = dir.resolve("elsewhere").toAbsolutePath().resolve("access.json");
        ContainerCluster container = container(dir, "<accesslog type=\"json\" file=\"" + file + "\"/>\n");
        assertEquals(Optional.of(file), container.accessLog().file());
    }

    @Test
    void accessLogUnknownType_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class, () -> container(dir, "<accesslog type=\"xml\"/>\n"));
        assertEquals("services.xml:3: <accesslog> type: 'xml' is not one of json, disabled, vespa, yapache", e.getMessage());
    }

    @Test
    void accessLogVespaType_warnsAndWritesJson() {
        ApplicationPackage app = loadContainer(dir, "<accesslog type=\"vespa\"/>\n");
        assertEquals(List.of("services.xml:3: <accesslog> type 'vespa' is not supported, writing JSON instead"), app.warnings());
        assertTrue(app.services().containers().get(0).accessLog().enabled());
    }

    @Test
    void noServerConfig_stopTimeoutIs30Seconds() {
        assertEquals(Duration.ofSeconds(30), container(dir, "").stopTimeout());
    }

    @Test
    void serverConfigStopTimeout_overridesInSeconds() {
        ContainerCluster container = container(dir, """
                <config name="jdisc.http.server">
                  <stopTimeout>2.5</stopTimeout>
                </config>
                """);
        assertEquals(Duration.ofMillis(2500), container.stopTimeout());
    }

    @Test
    void serverConfigWithNamespace_isRecognised() {
        ContainerCluster container = container(dir, "<config name=\"server\" namespace=\"jdisc.http\"><stopTimeout>0</stopTimeout></config>\n");
        assertEquals(Duration.ZERO, container.stopTimeout());
    }

    @Test
    void negativeStopTimeout_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class, () -> container(dir, """
                <config name="jdisc.http.server">
                  <stopTimeout>-1</stopTimeout>
                </config>
                """));
        assertEquals("services.xml:4: <stopTimeout>: '-1' is not a valid number of seconds", e.getMessage());
    }

    @Test
    void unsupportedElement_warnsNamingFileLineAndElement() {
        ApplicationPackage app = loadContainer(dir, "<document-api/>\n<search/>\n");
        assertEquals(List.of("services.xml:4: unsupported element <search> in <container>, ignored"), app.warnings());
    }

    @Test
    void unknownElement_warnsNamingFileLineAndElement() {
        ApplicationPackage app = loadContainer(dir, "<frobnicate/>\n");
        assertEquals(List.of("services.xml:3: unknown element <frobnicate> in <container>, ignored"), app.warnings());
    }

    @Test
    void unknownAttribute_warnsNamingAttributeAndElement() {
        ApplicationPackage app = loadContainer(dir, "<http><server id=\"a\" port=\"8080\" colour=\"blue\"/></http>\n");
        assertEquals(List.of("services.xml:3: unknown attribute 'colour' of <server id='a'>, ignored"), app.warnings());
    }

    @Test
    void vespaAttributeWithoutEffect_warns() {
        ApplicationPackage app = loadContainer(dir, "<http><server id=\"a\" required=\"true\"/></http>\n");
        assertEquals(List.of("services.xml:3: attribute 'required' of <server id='a'> has no effect in Sluice, ignored"),
                     app.warnings());
    }

    @Test
    void containerNodes_warnsNoEffect() {
        ApplicationPackage app = loadContainer(dir, "<nodes><node hostalias=\"node1\"/></nodes>\n");
        assertEquals(List.of("services.xml:3: <nodes> in <container> has no effect in Sluice "
                             + "(Sluice runs the container as one process), ignored"), app.warnings());
    }

    @Test
    void unsupportedConfig_warnsNamingConfig() {
        ApplicationPackage app = loadContainer(dir, "<config name=\"container.qr\"><x>1</x></config>\n");
        assertEquals(List.of("services.xml:3: unsupported config 'container.qr' in <container id='default'>, ignored"),
                     app.warnings());
    }

    @Test
    void twoHttpElements_failsNamingSecond() {
        ConfigException e = assertThrows(ConfigException.class, () -> container(dir, "<http/>\n<http/>\n"));
        assertEquals("services.xml:4: <http> appears more than once in <container id='default'>", e.getMessage());
    }

    @Test
    void containerWithoutId_isNamedContainer() {
        ApplicationPackage app = TestPackages.load(dir, "<services><container version=\"1.0\"/></services>");
        assertEquals("container", app.services().containers().get(0).id());
    }

    @Test
    void emptyContainerId_failsNamingAttribute() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> TestPackages.load(dir, "<services>\n<container id=\" \"/>\n</services>"));
        assertEquals("services.xml:2: <container> 'id' must not be empty", e.getMessage());
    }

    @Test
    void filtering_isRefusedNamingItsLine() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> loadContainer(dir, "<http>\n<filtering/>\n<server id=\"a\"/>\n</http>\n"));
        assertEquals("services.xml:4: <filtering> in <http> is not supported by Sluice: request filters (and the access "
                     + "control they do) are not implemented yet, and starting without them would let every client "
                     + "read and write; remove the element to serve without them", e.getMessage());
    }

    private static final String MTLS_SERVER = "<http><server id=\"tls\" port=\"8443\"><ssl>"
                                              + "<private-key-file>k.pem</private-key-file><certificate-file>c.pem</certificate-file>"
                                              + "<ca-certificates-file>ca.pem</ca-certificates-file>"
                                              + "<client-authentication>want</client-authentication></ssl></server></http>\n";

    @Test
    void clients_readCertificatesTokensAndPermissions() throws Exception {
        java.nio.file.Files.createDirectories(dir.resolve("security"));
        java.nio.file.Files.writeString(dir.resolve("security/clients.pem"), "-----BEGIN CERTIFICATE-----\n");
        ContainerCluster container = container(dir, MTLS_SERVER
                                                    + "<clients>\n"
                                                    + "<client id=\"feed\" permissions=\"read,write\"><certificate file=\"security/clients.pem\"/></client>\n"
                                                    + "<client id=\"query\" permissions=\"read\"><token id=\"query-token\"/></client>\n"
                                                    + "</clients>\n");
        assertEquals(List.of(new ClientConfig("feed", java.util.Set.of(ClientConfig.Permission.READ, ClientConfig.Permission.WRITE),
                                              List.of(dir.resolve("security/clients.pem").normalize()), List.of()),
                             new ClientConfig("query", java.util.Set.of(ClientConfig.Permission.READ), List.of(), List.of("query-token"))),
                     container.clients());
    }

    @Test
    void clients_withoutCredentialsOrWithBadPermissionsOrMissingFiles_stopStartUp() {
        ConfigException none = assertThrows(ConfigException.class,
                () -> loadContainer(dir, "<clients>\n<client id=\"feed\" permissions=\"write\"/>\n</clients>\n"));
        assertEquals("services.xml:4: <client id='feed'> has neither a <certificate> nor a <token>", none.getMessage());
        ConfigException permission = assertThrows(ConfigException.class,
                () -> loadContainer(dir, "<clients>\n<client id=\"feed\" permissions=\"read,admin\"><token id=\"t\"/></client>\n</clients>\n"));
        assertTrue(permission.getMessage().contains("permissions: 'admin' is not one of read, write"), permission.getMessage());
        ConfigException missing = assertThrows(ConfigException.class,
                () -> loadContainer(dir, "<clients>\n<client id=\"feed\" permissions=\"read\"><certificate file=\"nope.pem\"/></client>\n</clients>\n"));
        assertTrue(missing.getMessage().contains("does not exist"), missing.getMessage());
    }

    @Test
    void certificateClients_withoutServerAskingForCertificates_stopStartUpNamingClientsAndLine() throws Exception {
        java.nio.file.Files.createDirectories(dir.resolve("security"));
        java.nio.file.Files.writeString(dir.resolve("security/clients.pem"), "-----BEGIN CERTIFICATE-----\n");
        ConfigException e = assertThrows(ConfigException.class, () -> loadContainer(dir, "<document-api/>\n<clients>\n"
                + "<client id=\"mtls\" permissions=\"read,write\"><certificate file=\"security/clients.pem\"/></client>\n"
                + "</clients>\n"));
        assertTrue(e.getMessage().startsWith("services.xml:4: <clients> of <container id='default'> has certificate clients, "
                                             + "but no <server> has <ssl> with <client-authentication>"), e.getMessage());
    }

}
