package io.sluice.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static io.sluice.config.TestPackages.container;
import static io.sluice.config.TestPackages.loadContainer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ServerReaderTest {

    @TempDir
    Path dir;

    private static String tlsServer(String sslBody) {
        return "<http>\n<server id=\"tls\" port=\"8443\">\n<ssl>\n" + sslBody + "</ssl>\n</server>\n</http>\n";
    }

    private SslConfig ssl(String sslBody) {
        return container(dir, tlsServer(sslBody)).servers().get(0).ssl().orElseThrow();
    }

    @Test
    void ssl_readsAllChildren() {
        SslConfig ssl = ssl("""
                <private-key-file>/etc/app/key.pem</private-key-file>
                <certificate-file>/etc/app/cert.pem</certificate-file>
                <ca-certificates-file>/etc/app/ca.pem</ca-certificates-file>
                <client-authentication>want</client-authentication>
                <cipher-suites> TLS_AES_128_GCM_SHA256, ,TLS_AES_256_GCM_SHA384 </cipher-suites>
                <protocols>TLSv1.3</protocols>
                """);
        assertEquals(new SslConfig(Path.of("/etc/app/key.pem"), Path.of("/etc/app/cert.pem"),
                                   Optional.of(Path.of("/etc/app/ca.pem")), SslConfig.ClientAuthentication.WANT,
                                   List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"), List.of("TLSv1.3")),
                     ssl);
    }

    @Test
    void ssl_relativeFilesResolveAgainstPackage() {
        SslConfig ssl = ssl("""
                <private-key-file>tls/key.pem</private-key-file>
                <certificate-file>./tls/cert.pem</certificate-file>
                <ca-certificates-file>tls/../tls/ca.pem</ca-certificates-file>
                <client-authentication>need</client-authentication>
                """);
        Path tls = dir.toAbsolutePath().resolve("tls");
        assertEquals(List.of(tls.resolve("key.pem"), tls.resolve("cert.pem"), tls.resolve("ca.pem")),
                     List.of(ssl.privateKeyFile(), ssl.certificateFile(), ssl.caCertificatesFile().orElseThrow()));
    }

    @Test
    void ssl_withoutOptionalChildren_usesVespaDefaults() {
        SslConfig ssl = ssl("<private-key-file>k.pem</private-key-file>\n<certificate-file>c.pem</certificate-file>\n");
        assertEquals(List.of(SslConfig.ClientAuthentication.DISABLED, SslConfig.DEFAULT_CIPHER_SUITES, SslConfig.DEFAULT_PROTOCOLS),
                     List.of(ssl.clientAuthentication(), ssl.cipherSuites(), ssl.protocols()));
    }

    @Test
    void ssl_missingFile_warnsNamingResolvedPath() {
        ApplicationPackage app = loadContainer(dir, tlsServer(
                "<private-key-file>k.pem</private-key-file>\n<certificate-file>c.pem</certificate-file>\n"));
        Path root = dir.toAbsolutePath();
        assertEquals(List.of("services.xml:6: <private-key-file> " + root.resolve("k.pem") + " does not exist (yet)",
                             "services.xml:7: <certificate-file> " + root.resolve("c.pem") + " does not exist (yet)"),
                     app.warnings());
    }

    @Test
    void ssl_existingFiles_noWarnings() throws IOException {
        Files.writeString(dir.resolve("k.pem"), "key");
        Files.writeString(dir.resolve("c.pem"), "cert");
        ApplicationPackage app = loadContainer(dir, tlsServer(
                "<private-key-file>k.pem</private-key-file>\n<certificate-file>c.pem</certificate-file>\n"));
        assertEquals(List.of(), app.warnings());
    }

    @Test
    void ssl_withoutPrivateKey_failsNamingLine() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> ssl("<certificate-file>c.pem</certificate-file>\n"));
        assertEquals("services.xml:5: <ssl> needs a <private-key-file>", e.getMessage());
    }

    @Test
    void ssl_unknownClientAuthentication_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class, () -> ssl("""
                <private-key-file>k.pem</private-key-file>
                <certificate-file>c.pem</certificate-file>
                <client-authentication>always</client-authentication>
                """));
        assertEquals("services.xml:8: <client-authentication>: 'always' is not one of disabled, want, need", e.getMessage());
    }

    @Test
    void ssl_needWithoutCaCertificates_failsNamingLine() {
        ConfigException e = assertThrows(ConfigException.class, () -> ssl("""
                <private-key-file>k.pem</private-key-file>
                <certificate-file>c.pem</certificate-file>
                <client-authentication>need</client-authentication>
                """));
        assertEquals("services.xml:5: <ssl>: client-authentication need needs a <ca-certificates-file>", e.getMessage());
    }

    @Test
    void ssl_unsupportedProtocol_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class, () -> ssl("""
                <private-key-file>k.pem</private-key-file>
                <certificate-file>c.pem</certificate-file>
                <protocols>TLSv1.2,TLSv1.1</protocols>
                """));
        assertEquals("services.xml:5: <ssl>: Unsupported TLS protocol 'TLSv1.1': only TLSv1.2 and TLSv1.3 are allowed",
                     e.getMessage());
    }

    @Test
    void ssl_emptyFileName_failsNamingElement() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> ssl("<private-key-file> </private-key-file>\n<certificate-file>c.pem</certificate-file>\n"));
        assertEquals("services.xml:6: <private-key-file> must not be empty", e.getMessage());
    }

    @Test
    void sslProvider_failsRatherThanServingCleartext() {
        ConfigException e = assertThrows(ConfigException.class, () -> container(dir, """
                <http>
                  <server id="tls" port="8443">
                    <ssl-provider class="com.example.Provider" bundle="b"/>
                  </server>
                </http>
                """));
        assertEquals("services.xml:5: <ssl-provider> in <server id='tls'> is not supported: configure PEM files with <ssl>",
                     e.getMessage());
    }

    @Test
    void twoSslElements_failsNamingSecond() {
        String ssl = "<ssl><private-key-file>k</private-key-file><certificate-file>c</certificate-file></ssl>\n";
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> container(dir, "<http><server id=\"a\">\n" + ssl + ssl + "</server></http>\n"));
        assertEquals("services.xml:5: <ssl> appears more than once in <server id='a'>", e.getMessage());
    }

    @Test
    void serverWithoutSsl_isCleartext() {
        assertEquals(Optional.empty(), container(dir, "<http><server id=\"a\"/></http>\n").servers().get(0).ssl());
    }

}
