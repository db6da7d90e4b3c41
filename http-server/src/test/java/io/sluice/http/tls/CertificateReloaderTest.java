package io.sluice.http.tls;

import io.sluice.config.AccessLogConfig;
import io.sluice.config.SslConfig;
import io.sluice.config.SslConfig.ClientAuthentication;
import io.sluice.http.ServerFixture;
import io.sluice.http.TestPki;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CertificateReloaderTest {

    @TempDir
    Path directory;

    private ServerFixture fixture;

    @AfterEach
    void stop() {
        if (fixture != null)
            fixture.close();
    }

    private ServerFixture start(TestPki pki, SslConfig ssl) {
        return fixture = ServerFixture.start(pki, ServerFixture.cluster(ssl, List.of(), AccessLogConfig.disabled()));
    }

    @Test
    void checkNow_rotatedFiles_newHandshakesSeeNewCertificate() throws IOException {
        TestPki pki = TestPki.create(directory);
        start(pki, pki.sslConfig(ClientAuthentication.DISABLED));
        int port = fixture.server().port(ServerFixture.TLS);
        var client = new TlsClient(pki.anonymousClientContext());
        assertEquals(pki.server().certificate(), client.exchange(port).serverCertificate());

        TestPki.Identity rotated = pki.rotateServer();
        assertTrue(fixture.server().certificateReloader(ServerFixture.TLS).orElseThrow().checkNow());

        assertEquals(rotated.certificate(), client.exchange(port).serverCertificate());
    }

    @Test
    void checkNow_unchangedFiles_doesNotReload() {
        TestPki pki = TestPki.create(directory);
        start(pki, pki.sslConfig(ClientAuthentication.DISABLED));
        assertFalse(fixture.server().certificateReloader(ServerFixture.TLS).orElseThrow().checkNow());
    }

    @Test
    void checkNow_brokenKeyFile_keepsServingOldCertificate() throws IOException {
        TestPki pki = TestPki.create(directory);
        start(pki, pki.sslConfig(ClientAuthentication.DISABLED));
        Files.writeString(pki.serverKeyFile(), "-----BEGIN PRIVATE KEY-----\nhalf-written");
        CertificateReloader reloader = fixture.server().certificateReloader(ServerFixture.TLS).orElseThrow();
        assertThrows(RuntimeException.class, reloader::checkNow);
        int port = fixture.server().port(ServerFixture.TLS);
        assertEquals(pki.server().certificate(), new TlsClient(pki.anonymousClientContext()).exchange(port).serverCertificate());
    }

    @Test
    void rsaKeyInPkcs1_servesTls() throws IOException {
        TestPki pki = TestPki.create(directory);
        Path key = directory.resolve("rsa-key.pem");
        Path chain = directory.resolve("rsa-chain.pem");
        TestPki.Identity rsa = pki.writeRsaServer(key, chain);
        start(pki, new SslConfig(key, chain, Optional.empty(), ClientAuthentication.DISABLED, List.of(), List.of()));
        var exchange = new TlsClient(pki.anonymousClientContext()).protocols("TLSv1.2").exchange(fixture.server().port(ServerFixture.TLS));
        assertEquals(rsa.certificate(), exchange.serverCertificate());
    }

    @Test
    void ecKeyInSec1_servesTls() throws IOException {
        TestPki pki = TestPki.create(directory);
        start(pki, new SslConfig(pki.serverSec1KeyFile(), pki.serverCertificateFile(), Optional.empty(),
                                 ClientAuthentication.DISABLED, List.of(), List.of()));
        var exchange = new TlsClient(pki.anonymousClientContext()).exchange(fixture.server().port(ServerFixture.TLS));
        assertEquals(pki.server().certificate(), exchange.serverCertificate());
    }

}
