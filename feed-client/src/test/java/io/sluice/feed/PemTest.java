package io.sluice.feed;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.interfaces.ECPrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.util.Base64;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class PemTest {

    @TempDir Path tmp;

    private Path pem(String type, byte[] der) throws IOException {
        return Files.writeString(tmp.resolve("key.pem"), "-----BEGIN " + type + "-----\n" +
                                 Base64.getMimeEncoder().encodeToString(der) + "\n-----END " + type + "-----\n");
    }

    private static byte[] tlv(int tag, byte[]... parts) {
        ByteArrayOutputStream content = new ByteArrayOutputStream();
        for (byte[] part : parts) content.writeBytes(part);
        byte[] bytes = content.toByteArray();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        if (bytes.length >= 0x80) {
            out.write(0x82);
            out.write(bytes.length >> 8);
        }
        out.write(bytes.length & 0xff);
        out.writeBytes(bytes);
        return out.toByteArray();
    }

    private static byte[] integer(BigInteger value) { return tlv(0x02, value.toByteArray()); }

    @Test
    void pkcs8_isRead() throws Exception {
        PrivateKey key = KeyPairGenerator.getInstance("EC").generateKeyPair().getPrivate();
        assertEquals(key, Pem.privateKey(pem("PRIVATE KEY", key.getEncoded())));
    }

    @Test
    void pkcs1Rsa_isWrappedAndRead() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(1024);
        RSAPrivateCrtKey key = (RSAPrivateCrtKey) generator.generateKeyPair().getPrivate();
        byte[] pkcs1 = tlv(0x30, integer(BigInteger.ZERO), integer(key.getModulus()), integer(key.getPublicExponent()),
                           integer(key.getPrivateExponent()), integer(key.getPrimeP()), integer(key.getPrimeQ()),
                           integer(key.getPrimeExponentP()), integer(key.getPrimeExponentQ()), integer(key.getCrtCoefficient()));
        RSAPrivateCrtKey read = (RSAPrivateCrtKey) Pem.privateKey(pem("RSA PRIVATE KEY", pkcs1));
        assertEquals(key.getModulus(), read.getModulus());
        assertEquals(key.getPrivateExponent(), read.getPrivateExponent());
    }

    @Test
    void sec1Ec_isWrappedWithItsCurveAndRead() throws Exception {
        ECPrivateKey key = (ECPrivateKey) KeyPairGenerator.getInstance("EC").generateKeyPair().getPrivate();
        byte[] secret = key.getS().toByteArray();
        byte[] fixed = new byte[32];
        System.arraycopy(secret, Math.max(0, secret.length - 32), fixed, Math.max(0, 32 - secret.length), Math.min(32, secret.length));
        byte[] prime256v1 = { 0x06, 0x08, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x03, 0x01, 0x07 };
        byte[] sec1 = tlv(0x30, integer(BigInteger.ONE), tlv(0x04, fixed), tlv(0xa0, prime256v1));
        assertEquals(key.getS(), ((ECPrivateKey) Pem.privateKey(pem("EC PRIVATE KEY", sec1))).getS());
    }

    @Test
    void encryptedKey_isRejectedByName() throws Exception {
        FeedException e = assertThrows(FeedException.class, () -> Pem.privateKey(pem("ENCRYPTED PRIVATE KEY", new byte[] { 1 })));
        assertEquals("Encrypted private keys are not supported: '" + tmp.resolve("key.pem") + "'", e.getMessage());
    }

}
