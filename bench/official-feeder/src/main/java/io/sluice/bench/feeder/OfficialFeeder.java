package io.sluice.bench.feeder;

import ai.vespa.feed.client.FeedClient;
import ai.vespa.feed.client.FeedClientBuilder;
import ai.vespa.feed.client.FeedException;
import ai.vespa.feed.client.JsonFeeder;
import ai.vespa.feed.client.Result;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Feeds a JSON or JSONL file with the official Vespa feed client exactly as an application would: {@link JsonFeeder}
 * over a {@link FeedClient} from {@link FeedClientBuilder} with every default (8 connections of 128 streams, dynamic
 * throttling, gzip above 512 bytes, h2c by prior knowledge on {@code http://}, h2 by ALPN on {@code https://}).
 *
 * <p>Prints the official CLI's first stats keys, in its format, so bench/feed.sh reads both feeders alike:
 * {@code feeder.seconds} (from after the handshake to the last result), {@code feeder.ok.count},
 * {@code feeder.ok.rate} and {@code feeder.error.count}. Exit code 1 for bad arguments, a failed handshake or a fatal
 * input error; 0 otherwise, even if operations failed (as the official CLI).
 *
 * <pre>java -jar official-feeder.jar --endpoint http://127.0.0.1:8080/ --file docs.jsonl [--ca-certificates ca.pem]</pre>
 */
public final class OfficialFeeder {

    private OfficialFeeder() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        String endpoint = null;
        Path file = null;
        Path caCertificates = null;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--endpoint": endpoint = value; i++; break;
                case "--file": file = value == null ? null : Path.of(value); i++; break;
                case "--ca-certificates": caCertificates = value == null ? null : Path.of(value); i++; break;
                default:
                    err.println("Unknown argument '" + args[i] + "'");
                    return usage(err);
            }
        }
        if (endpoint == null || file == null) return usage(err);

        FeedClientBuilder builder = FeedClientBuilder.create(URI.create(endpoint));
        if (caCertificates != null) builder.setCaCertificatesFile(caCertificates);
        AtomicLong ok = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicLong firstErrors = new AtomicLong();
        long start;
        try (FeedClient client = builder.build(); InputStream in = Files.newInputStream(file)) {
            start = System.nanoTime();
            JsonFeeder feeder = JsonFeeder.builder(client).build();
            feeder.feedMany(in, new JsonFeeder.ResultCallback() {
                @Override
                public void onNextResult(Result result, FeedException error) {
                    if (error == null) {
                        ok.incrementAndGet();
                        return;
                    }
                    errors.incrementAndGet();
                    if (firstErrors.incrementAndGet() <= 5) err.println(error.getMessage());
                }
            }).join();
        } catch (IOException | FeedException | CompletionException e) {
            err.println("Error: " + e.getMessage());
            return 1;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        out.printf(Locale.ROOT, "{%n  \"feeder.seconds\" : %.3f,%n  \"feeder.ok.count\" : %d,%n  \"feeder.ok.rate\" : %.3f,%n"
                                + "  \"feeder.error.count\" : %d%n}%n",
                   seconds, ok.get(), ok.get() / Math.max(seconds, 1e-9), errors.get());
        return 0;
    }

    private static int usage(PrintStream err) {
        err.println("Usage: OfficialFeeder --endpoint URL --file FILE [--ca-certificates PEM]");
        return 1;
    }

}
