package io.sluice.feed;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import javax.net.ssl.X509KeyManager;
import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.Optional;

/**
 * The client's key manager, remembering whether a server asked for a client certificate this client could not
 * present. Under TLS 1.3 a server that needs one refuses it only after the client finished its handshake, by closing
 * the connection; the client then sees nothing but a closed channel, and this is how it can say why.
 */
final class ClientCertificateProbe extends X509ExtendedKeyManager {

    private final X509KeyManager keys; // null when no certificate is configured
    private volatile boolean unanswered = false;

    ClientCertificateProbe(X509KeyManager keys) {
        this.keys = keys;
    }

    /** Why a TLS connection may have been refused, if a server asked for a certificate this client did not have. */
    Optional<String> problem() {
        if ( ! unanswered) return Optional.empty();
        return Optional.of(keys == null ? "the server asked for a client certificate, but none is configured"
                                        : "the server asked for a client certificate from CAs that did not issue the configured one");
    }

    private String answer(String alias) {
        if (alias == null) unanswered = true;
        return alias;
    }

    @Override public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
        return answer(keys instanceof X509ExtendedKeyManager ? ((X509ExtendedKeyManager) keys).chooseEngineClientAlias(keyType, issuers, engine)
                      : keys == null ? null : keys.chooseClientAlias(keyType, issuers, null));
    }

    @Override public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return answer(keys == null ? null : keys.chooseClientAlias(keyType, issuers, socket));
    }

    @Override public String[] getClientAliases(String keyType, Principal[] issuers) {
        return keys == null ? null : keys.getClientAliases(keyType, issuers);
    }

    @Override public X509Certificate[] getCertificateChain(String alias) {
        return keys == null ? null : keys.getCertificateChain(alias);
    }

    @Override public PrivateKey getPrivateKey(String alias) {
        return keys == null ? null : keys.getPrivateKey(alias);
    }

    // A client never serves.
    @Override public String[] getServerAliases(String keyType, Principal[] issuers) { return null; }
    @Override public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) { return null; }

}
