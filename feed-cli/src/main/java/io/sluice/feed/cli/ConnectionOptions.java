package io.sluice.feed.cli;

import io.sluice.feed.FeedClientBuilder;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** The endpoint, TLS and header options that feed and visit share. */
final class ConnectionOptions {

    static final Set<String> FLAGS = Set.of("disable-ssl-hostname-verification");
    static final Set<String> OPTIONS = Set.of("endpoint", "certificate", "private-key", "ca-certificates");
    static final Set<String> MULTI = Set.of("header");
    static final String PREFER_CHACHA20 = "sluice.feed.preferChaCha20";

    static final String HELP =
            "  --endpoint URL                        /document/v1 endpoint; only scheme, host and port are used\n" +
            "  --certificate FILE                    client certificate (PEM), with --private-key\n" +
            "  --private-key FILE                    client private key (PEM), with --certificate\n" +
            "  --ca-certificates FILE                CA certificates (PEM) to trust instead of the JVM's\n" +
            "  --disable-ssl-hostname-verification   do not match the server certificate to its host name\n" +
            "  --header 'Name: value'                a header on every request; repeatable\n";

    private ConnectionOptions() { }

    static URI endpoint(Args args) {
        String value = args.value("endpoint").orElseThrow(() -> new UsageException("Option '--endpoint' is required"));
        try {
            URI uri = new URI(value);
            if ( ! "http".equals(uri.getScheme()) && ! "https".equals(uri.getScheme()) || uri.getHost() == null)
                throw new UsageException("Option '--endpoint' must be an http:// or https:// URL with a host, but was '" + value + "'");
            return uri;
        }
        catch (URISyntaxException e) {
            throw new UsageException("Option '--endpoint' is not a valid URL: '" + value + "'");
        }
    }

    static FeedClientBuilder builder(Args args, URI endpoint) {
        FeedClientBuilder builder = FeedClientBuilder.create(endpoint);
        if (args.has("certificate") != args.has("private-key"))
            throw new UsageException("Options '--certificate' and '--private-key' must be given together");
        if (args.has("certificate"))
            builder.setCertificate(existing(args, "certificate"), existing(args, "private-key"));
        if (args.has("ca-certificates")) builder.setCaCertificatesFile(existing(args, "ca-certificates"));
        if (args.has("disable-ssl-hostname-verification")) builder.setHostnameVerification(false);
        // Set by ./sluice when it runs a TLS feed without C2, which AES-GCM needs to be cheap (see the launcher).
        builder.setPreferChaCha20(Boolean.getBoolean(PREFER_CHACHA20));
        for (String header : args.values("header")) {
            String unquoted = header.length() > 1 && (header.startsWith("'") && header.endsWith("'") || header.startsWith("\"") && header.endsWith("\""))
                              ? header.substring(1, header.length() - 1) : header;
            int colon = unquoted.indexOf(':');
            if (colon <= 0) throw new UsageException("Option '--header' must be 'Name: value', but was '" + header + "'");
            builder.addRequestHeader(unquoted.substring(0, colon).trim(), unquoted.substring(colon + 1).trim());
        }
        return builder;
    }

    static Path existing(Args args, String name) {
        Path path = Path.of(args.value(name).get());
        if ( ! Files.isReadable(path)) throw new UsageException("Option '--" + name + "': cannot read file '" + path + "'");
        return path;
    }

    static <T> Set<T> union(Set<T> a, Set<T> b) {
        return Set.copyOf(new java.util.HashSet<>(List.of(a, b).stream().flatMap(Set::stream).toList()));
    }

}
