package io.sluice.http;

import ai.vespa.feed.client.FeedClient;
import ai.vespa.feed.client.FeedClientBuilder;
import ai.vespa.feed.client.FeedException;
import ai.vespa.feed.client.JsonFeeder;
import ai.vespa.feed.client.Result;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs vespa-feed-client's {@link JsonFeeder}. Loaded by {@link VespaFeedClientCompatibilityTest} in a class loader
 * holding the feed client and the Jetty it was built for, so only JDK types cross into and out of it.
 */
public final class VespaFeedDriver {

    private VespaFeedDriver() { }

    /**
     * Feeds {@code operations} (JSONL) to {@code endpoint}, trusting {@code caFile} for TLS if not null.
     *
     * @return the number of successful operations, followed by a description of every failure
     */
    public static List<String> feed(String endpoint, String caFile, String operations) throws Exception {
        FeedClientBuilder builder = FeedClientBuilder.create(URI.create(endpoint)).setConnectionsPerEndpoint(2);
        if (caFile != null)
            builder.setCaCertificatesFile(Path.of(caFile));
        AtomicInteger successes = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        try (FeedClient client = builder.build();
             JsonFeeder feeder = JsonFeeder.builder(client).withTimeout(Duration.ofSeconds(60)).build()) {
            feeder.feedMany(new ByteArrayInputStream(operations.getBytes(StandardCharsets.UTF_8)), new JsonFeeder.ResultCallback() {
                @Override public void onNextResult(Result result, FeedException error) {
                    if (error != null) failures.add(String.valueOf(error));
                    else if (result.type() == Result.Type.success) successes.incrementAndGet();
                    else failures.add(result.documentId() + ": " + result.type());
                }
                @Override public void onError(FeedException error) {
                    failures.add("feed error: " + error);
                }
            }).get(5, TimeUnit.MINUTES);
        }
        List<String> outcome = new ArrayList<>();
        outcome.add(String.valueOf(successes.get()));
        outcome.addAll(failures);
        return outcome;
    }

}
