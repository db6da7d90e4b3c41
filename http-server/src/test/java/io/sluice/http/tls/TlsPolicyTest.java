package io.sluice.http.tls;

import io.sluice.config.AccessLogConfig;
import io.sluice.config.SslConfig;
import io.sluice.config.SslConfig.ClientAuthentication;
import io.sluice.http.ServerFixture;
import io.sluice.http.TestPki;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The TLS policy a server enforces, seen from clients that offer exactly one thing. */
class TlsPolicyTest {

    private static final String OK = "HTTP/1.1 200 OK";
    private static final String CBC_SHA1 = "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA";

    @TempDir
    static Path certificates;

    static TestPki pki;

    private ServerFixture fixture;

    @BeforeAll
    static void createPki() {
        pki = TestPki.create(certificates);
    }

    @AfterEach
    void stop() {
        if (fixture != null)
            fixture.close();
    }

    private int start(SslConfig ssl) {
        fixture = ServerFixture.start(pki, ServerFixture.cluster(ssl, List.of(), AccessLogConfig.disabled()));
        return fixture.server().port(ServerFixture.TLS);
    }

    private int start(ClientAuthentication clientAuthentication) {
        return start(pki.sslConfig(clientAuthentication));
    }

    /** A server that would accept a TLS 1.1 cipher suite, so only the protocol policy can refuse TLS 1.1. */
    private SslConfig withTls11CapableSuite() {
        return new SslConfig(pki.serverKeyFile(), pki.serverCertificateFile(), Optional.empty(), ClientAuthentication.DISABLED,
                             List.of("TLS_AES_128_GCM_SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", CBC_SHA1), List.of());
    }

    @Test
    void tls13_defaultPolicy_isAccepted() throws IOException {
        int port = start(ClientAuthentication.DISABLED);
        var exchange = new TlsClient(pki.anonymousClientContext()).protocols("TLSv1.3").exchange(port);
        assertEquals(OK, exchange.statusLine());
        assertEquals("TLSv1.3", exchange.protocol());
    }

    @Test
    void tls12_defaultPolicy_isAccepted() throws IOException {
        int port = start(ClientAuthentication.DISABLED);
        assertEquals("TLSv1.2", new TlsClient(pki.anonymousClientContext()).protocols("TLSv1.2").exchange(port).protocol());
    }

    @Test
    void alpnOfferingOnlyHttp11_negotiatesHttp11() throws IOException {
        int port = start(ClientAuthentication.DISABLED);
        var exchange = new TlsClient(pki.anonymousClientContext()).alpn("http/1.1").exchange(port);
        assertEquals(OK, exchange.statusLine());
        assertEquals("http/1.1", exchange.applicationProtocol());
    }

    @Test
    void noAlpn_fallsBackToHttp11() throws IOException {
        int port = start(ClientAuthentication.DISABLED);
        var exchange = new TlsClient(pki.anonymousClientContext()).exchange(port);
        assertEquals(OK, exchange.statusLine());
        assertEquals("", exchange.applicationProtocol());
    }

    @Test
    void tls11_isRefused() {
        int port = start(withTls11CapableSuite());
        var client = new TlsClient(pki.anonymousClientContext()).protocols("TLSv1.1").cipherSuites(CBC_SHA1);
        assertThrows(IOException.class, () -> client.exchange(port));
    }

    @Test
    void tls11CapableSuite_overTls12_isAccepted() throws IOException {
        int port = start(withTls11CapableSuite());
        var client = new TlsClient(pki.anonymousClientContext()).protocols("TLSv1.2").cipherSuites(CBC_SHA1);
        assertEquals(OK, client.exchange(port).statusLine());
    }

    @Test
    void nonAeadCipher_isRefused() {
        int port = start(ClientAuthentication.DISABLED);
        var client = new TlsClient(pki.anonymousClientContext()).protocols("TLSv1.2")
                                                                .cipherSuites("TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256");
        assertThrows(IOException.class, () -> client.exchange(port));
    }

    @Test
    void aeadCipher_isAccepted() throws IOException {
        int port = start(ClientAuthentication.DISABLED);
        var client = new TlsClient(pki.anonymousClientContext()).protocols("TLSv1.2")
                                                                .cipherSuites("TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256");
        assertEquals(OK, client.exchange(port).statusLine());
    }

    @Test
    void need_clientWithoutCertificate_isRefused() {
        int port = start(ClientAuthentication.NEED);
        assertThrows(IOException.class, () -> new TlsClient(pki.anonymousClientContext()).exchange(port));
    }

    @Test
    void need_clientWithoutCertificateOverTls12_isRefused() {
        int port = start(ClientAuthentication.NEED);
        assertThrows(IOException.class, () -> new TlsClient(pki.anonymousClientContext()).protocols("TLSv1.2").exchange(port));
    }

    @Test
    void need_clientSignedByCa_isAccepted() throws IOException {
        int port = start(ClientAuthentication.NEED);
        assertEquals(OK, new TlsClient(pki.clientContext()).exchange(port).statusLine());
    }

    @Test
    void need_clientFromAnotherCa_isRefused() {
        int port = start(ClientAuthentication.NEED);
        assertThrows(IOException.class, () -> new TlsClient(pki.strangerClientContext()).exchange(port));
    }

    @Test
    void want_clientWithoutCertificate_isAccepted() throws IOException {
        int port = start(ClientAuthentication.WANT);
        assertEquals(OK, new TlsClient(pki.anonymousClientContext()).exchange(port).statusLine());
    }

}
