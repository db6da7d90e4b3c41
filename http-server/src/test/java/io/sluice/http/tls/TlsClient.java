package io.sluice.http.tls;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.util.List;

/** A raw TLS client that offers exactly the protocols and suites a test gives, and does one HTTP/1.1 exchange. */
final class TlsClient {

    /** What one exchange saw: the status line and the server's leaf certificate. */
    record Exchange(String statusLine, X509Certificate serverCertificate, String protocol, String applicationProtocol) { }

    private final SSLContext context;
    private List<String> protocols = List.of();
    private List<String> cipherSuites = List.of();
    private List<String> applicationProtocols = List.of();

    TlsClient(SSLContext context) {
        this.context = context;
    }

    TlsClient protocols(String... protocols) {
        this.protocols = List.of(protocols);
        return this;
    }

    /** ALPN protocols to offer; none by default. */
    TlsClient alpn(String... protocols) {
        this.applicationProtocols = List.of(protocols);
        return this;
    }

    TlsClient cipherSuites(String... cipherSuites) {
        this.cipherSuites = List.of(cipherSuites);
        return this;
    }

    /**
     * Handshakes and sends {@code GET /status.html}.
     *
     * @throws IOException if the handshake fails, or the server closes the connection instead of answering
     *                     (as a TLS 1.3 server does after rejecting a client certificate)
     */
    Exchange exchange(int port) throws IOException {
        try (var socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            if ( ! protocols.isEmpty())
                socket.setEnabledProtocols(protocols.toArray(new String[0]));
            if ( ! cipherSuites.isEmpty())
                socket.setEnabledCipherSuites(cipherSuites.toArray(new String[0]));
            if ( ! applicationProtocols.isEmpty()) {
                SSLParameters parameters = socket.getSSLParameters();
                parameters.setApplicationProtocols(applicationProtocols.toArray(new String[0]));
                socket.setSSLParameters(parameters);
            }
            socket.startHandshake();
            OutputStream out = socket.getOutputStream();
            out.write("GET /status.html HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String status = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII)).readLine();
            if (status == null)
                throw new EOFException("The server closed the connection without answering");
            return new Exchange(status, (X509Certificate) socket.getSession().getPeerCertificates()[0],
                                socket.getSession().getProtocol(), socket.getApplicationProtocol());
        }
    }

}
