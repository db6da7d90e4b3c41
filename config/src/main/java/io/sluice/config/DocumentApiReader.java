package io.sluice.config;

import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** Reads {@code <document-api>} into a {@link DocumentApiConfig}, starting from {@link DocumentApiConfig#defaults()}. */
final class DocumentApiReader {

    /** Vespa options Sluice accepts without applying them, and why. */
    private static final Map<String, String> NO_EFFECT = Map.of(
            "abortondocumenterror", "no message bus",
            "retryenabled", "no message bus",
            "route", "no message bus",
            "retrydelay", "no message bus",
            "tracelevel", "no message bus",
            "mbusport", "no message bus",
            "binding", "/document/v1/ is always served at the root",
            "http-client-api", "not configurable",
            "rest-api", "not configurable",
            "config", "not configurable");

    private DocumentApiReader() { }

    static DocumentApiConfig read(XmlElement documentApi, Diagnostics diagnostics) {
        diagnostics.checkAttributes(documentApi, Set.of(), Set.of());
        DocumentApiConfig defaults = DocumentApiConfig.defaults();
        long maxDocumentSize = defaults.maxDocumentSize();
        Duration timeout = defaults.timeout();
        boolean ignoreUndefinedFields = defaults.ignoreUndefinedFields();
        int maxPendingDocs = defaults.maxPendingDocs();
        long maxPendingBytes = defaults.maxPendingBytes();
        int maxVisits = VisitLimits.DEFAULT_MAX_VISITS, maxVisitsPerClient = 0, maxVisitsPerConnection = 0;
        Duration visitStallTimeout = VisitLimits.DEFAULT_STALL_TIMEOUT;
        Set<String> seen = new HashSet<>();
        for (XmlElement child : documentApi.children()) {
            if ( ! child.name().equals("binding")) diagnostics.once(child, documentApi, seen);
            if ( ! NO_EFFECT.containsKey(child.name())) diagnostics.checkAttributes(child, Set.of(), Set.of());
            switch (child.name()) {
                case "max-document-size": maxDocumentSize = diagnostics.text(child, ValueType.BYTE_SIZE); break;
                case "timeout": timeout = diagnostics.text(child, ValueType.POSITIVE_SECONDS); break;
                case "ignore-undefined-fields": ignoreUndefinedFields = diagnostics.text(child, ValueType.BOOLEAN); break;
                case "maxpendingdocs": maxPendingDocs = diagnostics.text(child, ValueType.POSITIVE_INT); break;
                case "maxpendingbytes": maxPendingBytes = diagnostics.text(child, ValueType.POSITIVE_LONG); break;
                case "max-visits": maxVisits = diagnostics.text(child, ValueType.POSITIVE_INT); break;
                case "max-visits-per-client": maxVisitsPerClient = diagnostics.text(child, ValueType.POSITIVE_INT); break;
                case "max-visits-per-connection": maxVisitsPerConnection = diagnostics.text(child, ValueType.POSITIVE_INT); break;
                case "visit-stall-timeout": visitStallTimeout = diagnostics.text(child, ValueType.POSITIVE_SECONDS); break;
                default:
                    if (NO_EFFECT.containsKey(child.name())) diagnostics.noEffect(child, documentApi, NO_EFFECT.get(child.name()));
                    else diagnostics.unknown(child, documentApi);
            }
        }
        long size = maxDocumentSize, pendingBytes = maxPendingBytes;
        Duration operationTimeout = timeout;
        boolean ignoreUndefined = ignoreUndefinedFields;
        int pendingDocs = maxPendingDocs;
        int visits = maxVisits, perClient = maxVisitsPerClient, perConnection = maxVisitsPerConnection;
        Duration stallTimeout = visitStallTimeout;
        return diagnostics.construct(documentApi, () -> new DocumentApiConfig(
                size, operationTimeout, ignoreUndefined, pendingDocs, pendingBytes,
                VisitLimits.of(visits, perClient, perConnection, stallTimeout)));
    }

}
