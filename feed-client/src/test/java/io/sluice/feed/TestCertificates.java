package io.sluice.feed;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;

/** EC key pairs made with the JDK's keytool, in PKCS#12 stores (password "secret"), and their PEM files. */
final class TestCertificates {

    private TestCertificates() { }

    /** A store in {@code dir} with a self-signed key pair under {@code alias}; {@code san} is a keytool -ext value or null. */
    static Path keystore(Path dir, String alias, String dname, String san) throws Exception {
        Path store = dir.resolve(alias + ".p12");
        List<String> command = new java.util.ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair", "-alias", alias,
                "-keyalg", "EC", "-groupname", "secp256r1", "-dname", dname, "-validity", "2", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", "secret", "-keypass", "secret"));
        if (san != null) command.addAll(List.of("-ext", san));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) throw new IllegalStateException("keytool failed: " + output);
        return store;
    }

    private static KeyStore load(Path store) throws Exception {
        KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(store.toFile())) {
            keyStore.load(in, "secret".toCharArray());
        }
        return keyStore;
    }

    static Path pemCertificate(Path store, String alias, Path file) throws Exception {
        return pem(file, "CERTIFICATE", load(store).getCertificate(alias).getEncoded());
    }

    static Path pemKey(Path store, String alias, Path file) throws Exception {
        return pem(file, "PRIVATE KEY", load(store).getKey(alias, "secret".toCharArray()).getEncoded());
    }

    private static Path pem(Path file, String type, byte[] der) throws IOException {
        String body = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        return Files.writeString(file, "-----BEGIN " + type + "-----\n" + body + "\n-----END " + type + "-----\n");
    }

}
