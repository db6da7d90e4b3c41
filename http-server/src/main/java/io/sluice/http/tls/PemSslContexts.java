package io.sluice.http.tls;

import io.sluice.config.ConfigException;
import io.sluice.config.SslConfig;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Builds server {@link SSLContext}s from PEM files: a private key in PKCS#8 ({@code BEGIN PRIVATE KEY}), PKCS#1
 * ({@code BEGIN RSA PRIVATE KEY}) or SEC1 ({@code BEGIN EC PRIVATE KEY}), a certificate chain, and optionally a CA bundle
 * that client certificates must chain to.
 */
public final class PemSslContexts {

    private static final char[] NO_PASSWORD = new char[0];

    private PemSslContexts() { }

    /**
     * A TLS context with the key and chain of {@code ssl}, trusting its CA bundle for client certificates.
     *
     * @throws ConfigException naming the file that cannot be read or parsed
     */
    public static SSLContext create(SslConfig ssl) {
        PrivateKey key = readPrivateKey(ssl.privateKeyFile());
        List<X509Certificate> chain = readCertificates(ssl.certificateFile());
        if (chain.isEmpty())
            throw new ConfigException("No certificate in certificate-file " + ssl.certificateFile());
        Optional<List<X509Certificate>> trusted = ssl.caCertificatesFile().map(PemSslContexts::readCertificates);
        trusted.ifPresent(cas -> {
            if (cas.isEmpty())
                throw new ConfigException("No certificate in ca-certificates-file " + ssl.caCertificatesFile().get());
        });
        try {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("server", key, NO_PASSWORD, chain.toArray(new Certificate[0]));
            var keyManagers = KeyManagerFactory.getInstance("PKIX");
            keyManagers.init(keys, NO_PASSWORD);

            TrustManagerFactory trustManagers = null;
            if (trusted.isPresent()) {
                KeyStore trust = KeyStore.getInstance("PKCS12");
                trust.load(null, null);
                int i = 0;
                for (X509Certificate ca : trusted.get())
                    trust.setCertificateEntry("ca-" + i++, ca);
                trustManagers = TrustManagerFactory.getInstance("PKIX");
                trustManagers.init(trust);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers.getKeyManagers(), trustManagers == null ? null : trustManagers.getTrustManagers(), null);
            return context;
        }
        catch (GeneralSecurityException | IOException e) {
            throw new ConfigException("Key in " + ssl.privateKeyFile() + " and certificates in " + ssl.certificateFile()
                                      + " do not make a TLS context: " + e.getMessage(), e);
        }
    }

    /**
     * Reads the first private key in a PEM file, in PKCS#8, PKCS#1 or SEC1 form.
     *
     * @throws ConfigException naming the file if it has no unencrypted private key
     */
    public static PrivateKey readPrivateKey(Path file) {
        String pem = read(file, "private-key-file");
        try (var parser = new PEMParser(new StringReader(pem))) {
            var converter = new JcaPEMKeyConverter();
            for (Object object = parser.readObject(); object != null; object = parser.readObject()) {
                if (object instanceof PrivateKeyInfo)
                    return converter.getPrivateKey((PrivateKeyInfo) object);
                if (object instanceof PEMKeyPair)
                    return converter.getPrivateKey(((PEMKeyPair) object).getPrivateKeyInfo()); // SEC1 may omit the public key
            }
        }
        catch (IOException | RuntimeException e) {
            throw new ConfigException("Cannot parse the private key in " + file + ": " + e.getMessage(), e);
        }
        throw new ConfigException("No unencrypted PEM private key (PKCS#8, PKCS#1 or SEC1) in " + file);
    }

    /**
     * Reads all certificates in a PEM file, in order.
     *
     * @throws ConfigException naming the file if it cannot be read or parsed
     */
    public static List<X509Certificate> readCertificates(Path file) {
        byte[] pem = read(file, "certificate file").getBytes(StandardCharsets.US_ASCII);
        try {
            var certificates = new ArrayList<X509Certificate>();
            for (Certificate certificate : CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem)))
                certificates.add((X509Certificate) certificate);
            return certificates;
        }
        catch (GeneralSecurityException e) {
            throw new ConfigException("Cannot parse the PEM certificates in " + file + ": " + e.getMessage(), e);
        }
    }

    private static String read(Path file, String what) {
        try {
            return Files.readString(file, StandardCharsets.US_ASCII);
        }
        catch (IOException e) {
            throw new ConfigException("Cannot read " + what + " " + file + ": " + e, e);
        }
    }

}
