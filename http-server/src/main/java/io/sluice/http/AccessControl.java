package io.sluice.http;

import io.sluice.config.ClientConfig;
import io.sluice.config.ConfigException;
import io.sluice.config.ContainerCluster;
import io.sluice.config.SslConfig;
import io.sluice.container.JsonResponses;
import io.sluice.container.document.DocumentV1ApiHandler;
import io.sluice.http.tls.PemSslContexts;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Function;

/**
 * Vespa's data-plane access control ({@code <clients>}) on {@code /document/v1}: a request is from a client if it
 * carries {@code Authorization: Bearer <value of one of its tokens>}, or if it came over TLS with a client certificate
 * that is one of the client's certificates or was issued by one of them. A request from no client is a 401, one whose
 * client lacks the permission is a 403 ({@code read} for GET and HEAD, {@code write} for the rest); both with a JSON
 * {@code message}. The operational endpoints ({@code /state/v1/}, {@code /status.html}, ...) stay open, as health
 * checks need them.
 *
 * <p>A token's value is read at start-up from the environment variable {@code SLUICE_TOKEN_<ID>} (the token id in
 * upper case, other characters than letters and digits as {@code _}); a token without one stops start-up.
 */
final class AccessControl extends Handler.Wrapper {

    static final String PROTECTED_PREFIX = "/document/v1";

    private record Token(byte[] value, ClientConfig client) { }

    private record Certificate(X509Certificate certificate, ClientConfig client) { }

    private final List<Token> tokens;
    private final List<Certificate> certificates;

    private AccessControl(Handler handler, List<Token> tokens, List<Certificate> certificates) {
        super(handler);
        this.tokens = tokens;
        this.certificates = certificates;
    }

    /**
     * {@code handler}, behind the access control of {@code cluster}'s {@code <clients>} if it has any.
     *
     * @throws ConfigException if a token has no value in {@code environment}, a certificate file cannot be read, or
     *                         certificate clients are configured but no TLS server asks for client certificates
     */
    static Handler wrap(Handler handler, ContainerCluster cluster, Function<String, String> environment) {
        if (cluster.clients().isEmpty())
            return handler;
        List<Token> tokens = new ArrayList<>();
        List<Certificate> certificates = new ArrayList<>();
        for (ClientConfig client : cluster.clients()) {
            for (String tokenId : client.tokenIds()) {
                String variable = variable(tokenId);
                String value = environment.apply(variable);
                if (value == null || value.isBlank())
                    throw new ConfigException("Token '" + tokenId + "' of <client id='" + client.id() + "'> has no value: "
                                              + "set the environment variable " + variable + " to it");
                tokens.add(new Token(value.trim().getBytes(StandardCharsets.UTF_8), client));
            }
            for (var file : client.certificateFiles()) {
                List<X509Certificate> read;
                try {
                    read = PemSslContexts.readCertificates(file);
                }
                catch (RuntimeException e) {
                    throw new ConfigException("Cannot read the certificates of <client id='" + client.id() + "'> from "
                                              + file + ": " + e.getMessage(), e);
                }
                if (read.isEmpty())
                    throw new ConfigException("No certificate in " + file + " of <client id='" + client.id() + "'>");
                read.forEach(certificate -> certificates.add(new Certificate(certificate, client)));
            }
        }
        if ( ! certificates.isEmpty() && cluster.servers().stream().noneMatch(AccessControl::asksForClientCertificates))
            throw new ConfigException("<clients> of <container id='" + cluster.id() + "'> has certificate clients, but no "
                                      + "<server> has <ssl> with <client-authentication>want</client-authentication> or "
                                      + "need and <ca-certificates-file> trusting them: no request could present one");
        return new AccessControl(handler, List.copyOf(tokens), List.copyOf(certificates));
    }

    /** The environment variable holding the value of token {@code tokenId}. */
    static String variable(String tokenId) {
        return "SLUICE_TOKEN_" + tokenId.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
    }

    private static boolean asksForClientCertificates(io.sluice.config.ServerConfig server) {
        return server.ssl().map(ssl -> ssl.clientAuthentication() != SslConfig.ClientAuthentication.DISABLED).orElse(false);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if ( ! Request.getPathInContext(request).startsWith(PROTECTED_PREFIX))
            return super.handle(request, response, callback);
        Optional<ClientConfig> client;
        String authorization = request.getHeaders().get(HttpHeader.AUTHORIZATION);
        if (authorization != null) {
            client = byToken(authorization);
            if (client.isEmpty()) {
                refuse(response, callback, HttpStatus.UNAUTHORIZED_401, "The bearer token is not one of a client's");
                return true;
            }
        }
        else {
            client = byCertificate(request);
            if (client.isEmpty()) {
                refuse(response, callback, HttpStatus.UNAUTHORIZED_401,
                       "Unauthenticated: send 'Authorization: Bearer <token>' or a client certificate of a <client>");
                return true;
            }
        }
        ClientConfig.Permission needed = HttpMethod.GET.is(request.getMethod()) || HttpMethod.HEAD.is(request.getMethod())
                                         ? ClientConfig.Permission.READ : ClientConfig.Permission.WRITE;
        if ( ! client.get().permissions().contains(needed)) {
            refuse(response, callback, HttpStatus.FORBIDDEN_403,
                   "Client '" + client.get().id() + "' does not have the " + needed.name().toLowerCase(Locale.ROOT)
                   + " permission needed for " + request.getMethod());
            return true;
        }
        // Visits are shared between clients by this identity rather than by address (DocumentV1ApiHandler).
        request.setAttribute(DocumentV1ApiHandler.CLIENT_ATTRIBUTE, client.get().id());
        return super.handle(request, response, callback);
    }

    private static void refuse(Response response, Callback callback, int status, String message) {
        if (status == HttpStatus.UNAUTHORIZED_401)
            response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, "Bearer");
        JsonResponses.error(response, callback, status, message);
    }

    /** The client whose token the header carries; every token is compared, in constant time each. */
    private Optional<ClientConfig> byToken(String authorization) {
        if ( ! authorization.regionMatches(true, 0, "Bearer ", 0, 7))
            return Optional.empty();
        byte[] presented = authorization.substring(7).trim().getBytes(StandardCharsets.UTF_8);
        ClientConfig found = null;
        for (Token token : tokens)
            if (MessageDigest.isEqual(token.value(), presented) && found == null)
                found = token.client();
        return Optional.ofNullable(found);
    }

    /** The client whose certificate the TLS peer presented, or which issued it. */
    private Optional<ClientConfig> byCertificate(Request request) {
        if (certificates.isEmpty())
            return Optional.empty();
        Object data = request.getAttribute(EndPoint.SslSessionData.ATTRIBUTE);
        if ( ! (data instanceof EndPoint.SslSessionData session) || session.peerCertificates() == null
             || session.peerCertificates().length == 0)
            return Optional.empty();
        X509Certificate leaf = session.peerCertificates()[0];
        for (Certificate known : certificates)
            if (known.certificate().equals(leaf) || issued(known.certificate(), leaf))
                return Optional.of(known.client());
        return Optional.empty();
    }

    private static boolean issued(X509Certificate issuer, X509Certificate leaf) {
        if ( ! leaf.getIssuerX500Principal().equals(issuer.getSubjectX500Principal()))
            return false;
        try {
            leaf.verify(issuer.getPublicKey());
            return true;
        }
        catch (GeneralSecurityException e) {
            return false;
        }
    }

}
