package io.sluice.http;

import io.sluice.config.SslConfig;
import org.bouncycastle.asn1.ASN1Encodable;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A throw-away PKI generated at test time: a CA, a server certificate for {@code localhost} and {@code 127.0.0.1},
 * a client certificate from the same CA, and a client certificate from another CA. PEM files are written to a
 * directory in the forms servers meet in practice: PKCS#8, PKCS#1 (RSA) and SEC1 (EC).
 */
public final class TestPki {

    private static final AtomicLong serials = new AtomicLong(System.nanoTime() & 0xffffffL);

    /** A key pair with its certificate chain, leaf first. */
    public record Identity(KeyPair keys, List<X509Certificate> chain) {
        public X509Certificate certificate() { return chain.get(0); }
    }

    private final Path directory;
    private final Identity ca;
    private final Identity server;
    private final Identity client;
    private final Identity otherCa;
    private final Identity otherClient;

    private TestPki(Path directory) throws GeneralSecurityException {
        this.directory = directory;
        this.ca = selfSigned("CN=Sluice test CA", ec());
        this.server = issue(ca, "CN=localhost", ec(), false, true);
        this.client = issue(ca, "CN=client", ec(), false, false);
        this.otherCa = selfSigned("CN=Other CA", ec());
        this.otherClient = issue(otherCa, "CN=stranger", ec(), false, false);
    }

    /** Generates the PKI and writes {@code ca.pem}, {@code server-key.pem} (PKCS#8), {@code server-key-sec1.pem}, {@code server-cert.pem}. */
    public static TestPki create(Path directory) {
        try {
            TestPki pki = new TestPki(directory);
            pki.writeServerFiles(pki.server, directory.resolve("server-key.pem"), directory.resolve("server-cert.pem"));
            Files.writeString(directory.resolve("server-key-sec1.pem"), sec1Pem(pki.server));
            Files.writeString(directory.resolve("ca.pem"), pem(pki.ca.certificate()));
            return pki;
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path caFile() { return directory.resolve("ca.pem"); }
    public Path serverKeyFile() { return directory.resolve("server-key.pem"); }
    public Path serverSec1KeyFile() { return directory.resolve("server-key-sec1.pem"); }
    public Path serverCertificateFile() { return directory.resolve("server-cert.pem"); }
    public Identity server() { return server; }

    /** TLS settings using the server key (PKCS#8) and certificate, and this CA for clients. */
    public SslConfig sslConfig(SslConfig.ClientAuthentication clientAuthentication) {
        return new SslConfig(serverKeyFile(), serverCertificateFile(), Optional.of(caFile()), clientAuthentication,
                             List.of(), List.of());
    }

    /** Issues a new server certificate from the CA with an RSA key, written as PKCS#1 and the chain; returns it. */
    public Identity writeRsaServer(Path keyFile, Path certificateFile) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            Identity rsa = issue(ca, "CN=localhost", generator.generateKeyPair(), false, true);
            Files.writeString(keyFile, traditionalPem(rsa));
            Files.writeString(certificateFile, pem(rsa.certificate()) + pem(ca.certificate()));
            return rsa;
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Issues a fresh server certificate (new key) and overwrites the server PEM files with it, as a rotation would. */
    public Identity rotateServer() {
        try {
            Identity fresh = issue(ca, "CN=localhost", ec(), false, true);
            writeServerFiles(fresh, serverKeyFile(), serverCertificateFile());
            return fresh;
        }
        catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A client context trusting this CA, presenting no certificate. */
    public SSLContext anonymousClientContext() {
        return clientContext(Optional.empty());
    }

    /** A client context trusting this CA, presenting a certificate from this CA. */
    public SSLContext clientContext() {
        return clientContext(Optional.of(client));
    }

    /** A client context trusting this CA, presenting a certificate from another CA. */
    public SSLContext strangerClientContext() {
        return clientContext(Optional.of(otherClient));
    }

    private SSLContext clientContext(Optional<Identity> identity) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", ca.certificate());
            var trustManagers = TrustManagerFactory.getInstance("PKIX");
            trustManagers.init(trust);
            KeyManagerFactory keyManagers = null;
            if (identity.isPresent()) {
                KeyStore keys = KeyStore.getInstance("PKCS12");
                keys.load(null, null);
                keys.setKeyEntry("client", identity.get().keys().getPrivate(), new char[0],
                                 identity.get().chain().toArray(new Certificate[0]));
                keyManagers = KeyManagerFactory.getInstance("PKIX");
                keyManagers.init(keys, new char[0]);
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers == null ? null : keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
            return context;
        }
        catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void writeServerFiles(Identity identity, Path keyFile, Path certificateFile) throws IOException {
        Files.writeString(keyFile, pkcs8Pem(identity));
        Files.writeString(certificateFile, pem(identity.certificate()) + pem(ca.certificate()));
    }

    private static KeyPair ec() throws GeneralSecurityException {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static Identity selfSigned(String subject, KeyPair keys) throws GeneralSecurityException {
        X500Name name = new X500Name(subject);
        return new Identity(keys, List.of(sign(name, name, keys.getPublic(), keys, true, false)));
    }

    private static Identity issue(Identity issuer, String subject, KeyPair keys, boolean isCa, boolean server)
            throws GeneralSecurityException {
        X500Name issuerName = new X500Name(issuer.certificate().getSubjectX500Principal().getName());
        return new Identity(keys, List.of(sign(issuerName, new X500Name(subject), keys.getPublic(), issuer.keys(), isCa, server),
                                          issuer.certificate()));
    }

    private static X509Certificate sign(X500Name issuer, X500Name subject, java.security.PublicKey key, KeyPair signer,
                                        boolean isCa, boolean server) throws GeneralSecurityException {
        try {
            Instant now = Instant.now();
            var builder = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(serials.incrementAndGet()),
                                                          Date.from(now.minus(Duration.ofHours(1))),
                                                          Date.from(now.plus(Duration.ofDays(1))), subject, key);
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
            builder.addExtension(Extension.keyUsage, true, isCa ? new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign)
                                                                : new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            if (server)
                builder.addExtension(Extension.subjectAlternativeName, false,
                                     new GeneralNames(new GeneralName[] { new GeneralName(GeneralName.dNSName, "localhost"),
                                                                          new GeneralName(GeneralName.iPAddress, "127.0.0.1") }));
            String algorithm = signer.getPrivate().getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
            var signed = builder.build(new JcaContentSignerBuilder(algorithm).build(signer.getPrivate()));
            return new JcaX509CertificateConverter().getCertificate(signed);
        }
        catch (org.bouncycastle.operator.OperatorCreationException | IOException e) {
            throw new GeneralSecurityException(e);
        }
    }

    /** PKCS#8: {@code BEGIN PRIVATE KEY}. */
    private static String pkcs8Pem(Identity identity) throws IOException {
        var out = new StringWriter();
        try (var writer = new JcaPEMWriter(out)) {
            writer.writeObject(new JcaPKCS8Generator(identity.keys().getPrivate(), null));
        }
        return out.toString();
    }

    /** OpenSSL's traditional form: PKCS#1 ({@code BEGIN RSA PRIVATE KEY}) or SEC1 ({@code BEGIN EC PRIVATE KEY}). */
    private static String traditionalPem(Identity identity) throws IOException {
        var out = new StringWriter();
        try (var writer = new JcaPEMWriter(out)) {
            writer.writeObject(identity.keys().getPrivate());
        }
        return out.toString();
    }

    /** SEC1 as {@code openssl ecparam -genkey} writes it: {@code BEGIN EC PRIVATE KEY}, with curve and public key. */
    private static String sec1Pem(Identity identity) throws IOException {
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(identity.keys().getPrivate().getEncoded());
        ASN1Encodable curve = info.getPrivateKeyAlgorithm().getParameters();
        BigInteger secret = org.bouncycastle.asn1.sec.ECPrivateKey.getInstance(info.parsePrivateKey()).getKey();
        SubjectPublicKeyInfo publicKey = SubjectPublicKeyInfo.getInstance(identity.keys().getPublic().getEncoded());
        var sec1 = new org.bouncycastle.asn1.sec.ECPrivateKey(256, secret, publicKey.getPublicKeyData(), curve);
        var out = new StringWriter();
        try (var writer = new PemWriter(out)) {
            writer.writeObject(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
        }
        return out.toString();
    }

    static String pem(X509Certificate certificate) throws IOException {
        var out = new StringWriter();
        try (var writer = new JcaPEMWriter(out)) {
            writer.writeObject(certificate);
        }
        return out.toString();
    }

}
