package io.sluice.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A server's {@code <ssl>}: PEM key and certificate chain, an optional CA bundle for client certificates, and policy.
 *
 * @param privateKeyFile       PEM private key (PKCS#8, PKCS#1 or SEC1)
 * @param certificateFile      PEM certificate chain, leaf first
 * @param caCertificatesFile   PEM CA certificates that client certificates must chain to
 * @param clientAuthentication whether a client certificate is asked for
 * @param cipherSuites         enabled cipher suites; {@link #DEFAULT_CIPHER_SUITES} when none are configured
 * @param protocols            enabled protocols; {@link #DEFAULT_PROTOCOLS} when none are configured
 */
public record SslConfig(Path privateKeyFile, Path certificateFile, Optional<Path> caCertificatesFile,
                        ClientAuthentication clientAuthentication, List<String> cipherSuites, List<String> protocols) {

    /** Vespa's default: AEAD suites with forward secrecy only, TLS 1.3 first. */
    public static final List<String> DEFAULT_CIPHER_SUITES = List.of(
            "TLS_AES_128_GCM_SHA256",
            "TLS_AES_256_GCM_SHA384",
            "TLS_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
            "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
            "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256");

    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.2", "TLSv1.3");

    public enum ClientAuthentication { DISABLED, WANT, NEED }

    public SslConfig {
        Objects.requireNonNull(privateKeyFile, "privateKeyFile");
        Objects.requireNonNull(certificateFile, "certificateFile");
        Objects.requireNonNull(caCertificatesFile, "caCertificatesFile");
        Objects.requireNonNull(clientAuthentication, "clientAuthentication");
        cipherSuites = cipherSuites.isEmpty() ? DEFAULT_CIPHER_SUITES : List.copyOf(cipherSuites);
        protocols = protocols.isEmpty() ? DEFAULT_PROTOCOLS : List.copyOf(protocols);
        for (String protocol : protocols)
            if ( ! protocol.equals("TLSv1.2") && ! protocol.equals("TLSv1.3"))
                throw new ConfigException("Unsupported TLS protocol '" + protocol + "': only TLSv1.2 and TLSv1.3 are allowed");
        if (clientAuthentication != ClientAuthentication.DISABLED && caCertificatesFile.isEmpty())
            throw new ConfigException("client-authentication " + clientAuthentication.name().toLowerCase()
                                      + " needs a <ca-certificates-file>");
    }

}
