package io.sluice.feed;

import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class ClientCertificateProbeTest {

    /** Keys holding one alias, which it offers for any request. */
    private static final class OneKey extends X509ExtendedKeyManager {
        @Override public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) { return "client"; }
        @Override public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) { return "client"; }
        @Override public String[] getClientAliases(String keyType, Principal[] issuers) { return new String[] { "client" }; }
        @Override public X509Certificate[] getCertificateChain(String alias) { return new X509Certificate[0]; }
        @Override public PrivateKey getPrivateKey(String alias) { return null; }
        @Override public String[] getServerAliases(String keyType, Principal[] issuers) { return null; }
        @Override public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) { return null; }
    }

    @Test
    void noRequestForCertificate_isNoProblem() {
        assertEquals(Optional.empty(), new ClientCertificateProbe(null).problem());
    }

    @Test
    void requestWithoutConfiguredCertificate_isNamedAsMissingCertificate() {
        ClientCertificateProbe probe = new ClientCertificateProbe(null);
        assertNull(probe.chooseEngineClientAlias(new String[] { "EC" }, null, null));
        assertEquals(Optional.of("the server asked for a client certificate, but none is configured"), probe.problem());
    }

    @Test
    void requestAnsweredWithCertificate_isNoProblem() {
        ClientCertificateProbe probe = new ClientCertificateProbe(new OneKey());
        assertEquals("client", probe.chooseEngineClientAlias(new String[] { "EC" }, null, null));
        assertEquals(Optional.empty(), probe.problem());
    }

}
