package io.sluice.http;

import org.eclipse.jetty.http.HttpVersion;

/** The ways a client reaches a Sluice server; every protocol test runs over each. */
public enum Transport {

    H1(false, HttpVersion.HTTP_1_1),
    H2C_PRIOR_KNOWLEDGE(false, HttpVersion.HTTP_2),
    H2C_UPGRADE(false, HttpVersion.HTTP_2),
    H1_TLS(true, HttpVersion.HTTP_1_1),
    H2_TLS(true, HttpVersion.HTTP_2);

    private final boolean tls;
    private final HttpVersion version;

    Transport(boolean tls, HttpVersion version) {
        this.tls = tls;
        this.version = version;
    }

    public boolean tls() {
        return tls;
    }

    /** The protocol the server must see, as {@code request.getConnectionMetaData().getProtocol()} reports it. */
    public String protocol() {
        return version.asString();
    }

    /** The version the client must see on the response. */
    public HttpVersion version() {
        return version;
    }

}
