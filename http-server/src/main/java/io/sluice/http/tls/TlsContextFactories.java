package io.sluice.http.tls;

import io.sluice.config.SslConfig;
import org.eclipse.jetty.http2.HTTP2Cipher;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/** Turns an {@link SslConfig} into Jetty's server TLS factory. */
public final class TlsContextFactories {

    private TlsContextFactories() { }

    /**
     * A factory with the PEM key material of {@code ssl}, exactly its protocols and cipher suites (ordered so HTTP/2's
     * cipher blocklist is never negotiated), and its client authentication mode.
     *
     * @throws io.sluice.config.ConfigException if the PEM files cannot be read
     */
    public static SslContextFactory.Server create(SslConfig ssl) {
        var factory = new SslContextFactory.Server();
        factory.setSslContext(PemSslContexts.create(ssl));
        factory.setIncludeProtocols(ssl.protocols().toArray(new String[0]));
        factory.setIncludeCipherSuites(ssl.cipherSuites().toArray(new String[0]));
        // The configured list is the policy: Jetty's default excludes would silently drop configured suites.
        factory.setExcludeCipherSuites();
        factory.setCipherComparator(HTTP2Cipher.COMPARATOR);
        factory.setUseCipherSuitesOrder(true);
        switch (ssl.clientAuthentication()) {
            case NEED: factory.setNeedClientAuth(true); break;
            case WANT: factory.setWantClientAuth(true); break;
            case DISABLED: break;
        }
        // SNI is not required and the host is not checked against it, as in Vespa's connector.
        factory.setSniRequired(false);
        return factory;
    }

}
