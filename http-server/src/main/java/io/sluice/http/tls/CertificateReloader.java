package io.sluice.http.tls;

import io.sluice.config.ConfigException;
import io.sluice.config.SslConfig;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Rotation without restart: checks the PEM files of a TLS server periodically and, when their contents change, builds
 * a new context and swaps it into the {@link SslContextFactory}. New handshakes then use the new key and certificates;
 * open connections keep theirs. Files that are half-written or invalid are logged and retried at the next check,
 * and the old context stays in use.
 */
public final class CertificateReloader extends AbstractLifeCycle {

    private static final Logger log = LoggerFactory.getLogger(CertificateReloader.class);

    private final SslConfig ssl;
    private final SslContextFactory.Server factory;
    private final Duration interval;
    private byte[] fingerprint;
    private ScheduledExecutorService scheduler;

    /** Watches the files of {@code ssl} for {@code factory}, whose current context was built from them as they are now. */
    public CertificateReloader(SslConfig ssl, SslContextFactory.Server factory, Duration interval) {
        if (interval.isNegative() || interval.isZero())
            throw new IllegalArgumentException("interval must be positive, but was " + interval);
        this.ssl = ssl;
        this.factory = factory;
        this.interval = interval;
        this.fingerprint = fingerprint();
    }

    @Override
    protected void doStart() {
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "certificate-reloader");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::checkQuietly, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    protected void doStop() {
        scheduler.shutdownNow();
    }

    /**
     * Reloads if any of the files changed since the last successful load.
     *
     * @return whether a new context was installed
     * @throws ConfigException if the files changed but do not make a valid context (the old one stays)
     */
    public synchronized boolean checkNow() {
        byte[] current = fingerprint();
        if (Arrays.equals(current, fingerprint))
            return false;
        SSLContext context = PemSslContexts.create(ssl);
        try {
            factory.reload(f -> f.setSslContext(context));
        }
        catch (Exception e) {
            throw new IllegalStateException("Installing the reloaded TLS context from " + ssl.certificateFile() + " failed", e);
        }
        fingerprint = current;
        log.info("Reloaded TLS key and certificates from {} and {}", ssl.privateKeyFile(), ssl.certificateFile());
        return true;
    }

    private void checkQuietly() {
        try {
            checkNow();
        }
        catch (RuntimeException e) {
            log.warn("Keeping the current TLS certificates: {}", e.getMessage());
        }
    }

    private byte[] fingerprint() {
        List<Path> files = new ArrayList<>(List.of(ssl.privateKeyFile(), ssl.certificateFile()));
        ssl.caCertificatesFile().ifPresent(files::add);
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (Path file : files)
                digest.update(Files.exists(file) ? Files.readAllBytes(file) : new byte[0]);
            return digest.digest();
        }
        catch (IOException e) {
            throw new UncheckedIOException("Cannot read TLS files to check for changes", e);
        }
        catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}
