package io.sluice.http.tls;

import io.sluice.config.ConfigException;
import io.sluice.http.TestPki;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.ECPrivateKey;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PemSslContextsTest {

    @TempDir
    static Path directory;

    static TestPki pki;

    @BeforeAll
    static void createPki() {
        pki = TestPki.create(directory);
    }

    @Test
    void readPrivateKey_pkcs8_isTheServerKey() throws IOException {
        assertTrue(Files.readString(pki.serverKeyFile()).startsWith("-----BEGIN PRIVATE KEY-----"));
        assertArrayEquals(pki.server().keys().getPrivate().getEncoded(),
                          PemSslContexts.readPrivateKey(pki.serverKeyFile()).getEncoded());
    }

    @Test
    void readPrivateKey_sec1Ec_isTheServerKey() throws IOException {
        assertTrue(Files.readString(pki.serverSec1KeyFile()).startsWith("-----BEGIN EC PRIVATE KEY-----"));
        var key = (ECPrivateKey) PemSslContexts.readPrivateKey(pki.serverSec1KeyFile());
        assertEquals(((ECPrivateKey) pki.server().keys().getPrivate()).getS(), key.getS());
    }

    @Test
    void readPrivateKey_pkcs1Rsa_isTheRsaKey() throws IOException {
        Path key = directory.resolve("rsa-key.pem");
        TestPki.Identity rsa = pki.writeRsaServer(key, directory.resolve("rsa-cert.pem"));
        assertTrue(Files.readString(key).startsWith("-----BEGIN RSA PRIVATE KEY-----"));
        assertArrayEquals(rsa.keys().getPrivate().getEncoded(), PemSslContexts.readPrivateKey(key).getEncoded());
    }

    @Test
    void readPrivateKey_certificateInsteadOfKey_namesTheFile() {
        var e = assertThrows(ConfigException.class, () -> PemSslContexts.readPrivateKey(pki.caFile()));
        assertEquals("No unencrypted PEM private key (PKCS#8, PKCS#1 or SEC1) in " + pki.caFile(), e.getMessage());
    }

    @Test
    void readPrivateKey_missingFile_namesTheFile() {
        Path missing = directory.resolve("missing.pem");
        var e = assertThrows(ConfigException.class, () -> PemSslContexts.readPrivateKey(missing));
        assertTrue(e.getMessage().startsWith("Cannot read private-key-file " + missing), e.getMessage());
    }

    @Test
    void readCertificates_chain_isLeafThenCa() {
        var chain = PemSslContexts.readCertificates(pki.serverCertificateFile());
        assertEquals(2, chain.size());
        assertEquals(pki.server().certificate(), chain.get(0));
    }

}
