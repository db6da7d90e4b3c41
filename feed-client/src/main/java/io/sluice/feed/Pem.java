package io.sluice.feed;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads PEM certificates and private keys with the JDK alone: PKCS#8 ({@code PRIVATE KEY}), PKCS#1
 * ({@code RSA PRIVATE KEY}) and SEC1 ({@code EC PRIVATE KEY}) keys; the latter two are wrapped into PKCS#8.
 */
final class Pem {

    private static final Pattern BLOCK = Pattern.compile("-----BEGIN ([A-Z0-9 ]+)-----([^-]*)-----END \\1-----");
    private static final byte[] RSA_ALGORITHM = { 0x30, 0x0d, 0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01, 0x05, 0x00 };
    private static final byte[] EC_OID = { 0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01 };

    private Pem() { }

    static List<X509Certificate> certificates(Path file) {
        try {
            List<X509Certificate> certificates = new ArrayList<>();
            CertificateFactory factory = CertificateFactory.getInstance("X.509");
            for (var cert : factory.generateCertificates(new ByteArrayInputStream(Files.readAllBytes(file))))
                certificates.add((X509Certificate) cert);
            if (certificates.isEmpty()) throw new FeedException("No certificates in '" + file + "'");
            return certificates;
        }
        catch (IOException | CertificateException e) {
            throw new FeedException(null, "Failed reading certificates from '" + file + "': " + e.getMessage(), e);
        }
    }

    static PrivateKey privateKey(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.US_ASCII);
        }
        catch (IOException e) {
            throw new FeedException(null, "Failed reading private key from '" + file + "': " + e.getMessage(), e);
        }
        Matcher matcher = BLOCK.matcher(text);
        while (matcher.find()) {
            String type = matcher.group(1);
            byte[] der = Base64.getMimeDecoder().decode(matcher.group(2));
            switch (type) {
                case "PRIVATE KEY": return pkcs8(der, file);
                case "RSA PRIVATE KEY": return pkcs8(sequence(integerZero(), RSA_ALGORITHM, octetString(der)), file);
                case "EC PRIVATE KEY": return pkcs8(sequence(integerZero(), sequence(EC_OID, curveOf(der, file)), octetString(der)), file);
                case "ENCRYPTED PRIVATE KEY": throw new FeedException("Encrypted private keys are not supported: '" + file + "'");
                default: // e.g. EC PARAMETERS before the key
            }
        }
        throw new FeedException("No private key in '" + file + "'");
    }

    private static PrivateKey pkcs8(byte[] der, Path file) {
        for (String algorithm : List.of("RSA", "EC", "Ed25519", "EdDSA")) {
            try {
                return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
            }
            catch (GeneralSecurityException | IllegalArgumentException e) {
                // try the next algorithm
            }
        }
        throw new FeedException("Unsupported private key in '" + file + "'");
    }

    /** The curve OID of a SEC1 key: SEQUENCE { INTEGER, OCTET STRING, [0] { OID } , ... }. */
    private static byte[] curveOf(byte[] sec1, Path file) {
        int[] position = { 0 };
        expect(sec1, position, 0x30, file);
        readLength(sec1, position);
        skip(sec1, position); // version
        skip(sec1, position); // key
        expect(sec1, position, 0xa0, file);
        readLength(sec1, position);
        int start = position[0];
        skip(sec1, position);
        byte[] oid = new byte[position[0] - start];
        System.arraycopy(sec1, start, oid, 0, oid.length);
        if (oid[0] != 0x06) throw new FeedException("EC key without curve parameters in '" + file + "'");
        return oid;
    }

    private static void expect(byte[] der, int[] position, int tag, Path file) {
        if (position[0] >= der.length || (der[position[0]++] & 0xff) != tag)
            throw new FeedException("Malformed EC private key in '" + file + "'");
    }

    private static int readLength(byte[] der, int[] position) {
        int first = der[position[0]++] & 0xff;
        if (first < 0x80) return first;
        int length = 0;
        for (int i = 0; i < (first & 0x7f); i++) length = (length << 8) | (der[position[0]++] & 0xff);
        return length;
    }

    private static void skip(byte[] der, int[] position) {
        position[0]++; // tag
        int length = readLength(der, position);
        position[0] += length;
    }

    private static byte[] integerZero() { return new byte[] { 0x02, 0x01, 0x00 }; }

    private static byte[] octetString(byte[] content) { return tlv(0x04, content); }

    private static byte[] sequence(byte[]... parts) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] part : parts) content.writeBytes(part);
        return tlv(0x30, content.toByteArray());
    }

    private static byte[] tlv(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(content.length + 6);
        out.write(tag);
        int length = content.length;
        if (length < 0x80) out.write(length);
        else if (length < 0x100) { out.write(0x81); out.write(length); }
        else if (length < 0x10000) { out.write(0x82); out.write(length >> 8); out.write(length); }
        else { out.write(0x83); out.write(length >> 16); out.write(length >> 8); out.write(length); }
        out.writeBytes(content);
        return out.toByteArray();
    }

}
