package io.sluice.container.faults;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One fault to inject into a share of the {@code /document/v1} requests it matches.
 *
 * @param fault        what the request gets instead of its answer
 * @param percent      the share of matching requests, in (0, 100]
 * @param method       only requests with this method (upper case), if set
 * @param documentType only requests whose path names this document type, if set
 * @param idPattern    only requests for one document whose full id ({@code id:ns:type::key}) matches this glob, in
 *                     which {@code *} stands for any characters and nothing else is special, if set
 */
public record FaultRule(Fault fault, double percent, Optional<String> method, Optional<String> documentType,
                        Optional<String> idPattern) {

    /** The methods of /document/v1. */
    static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "DELETE", "HEAD", "PATCH");

    /** Longest injected delay: a minute, the longest timeout a Vespa client is likely to set. */
    public static final long MAX_DELAY_MILLIS = 60_000;

    /** What a faulted request gets. */
    public enum Kind {
        /** 429 with Vespa's overload message: clients throttle and retry. */
        OVERLOAD("429", 429),
        /** 503: the service is unavailable; clients retry. */
        UNAVAILABLE("503", 503),
        /** 504: timed out; clients retry, not knowing whether a write was applied (here it never was). */
        TIMEOUT("504", 504),
        /** 507: Vespa's feed block on resource exhaustion; clients do not retry. */
        INSUFFICIENT_STORAGE("507", 507),
        /** Answered normally, after a delay. */
        DELAY("delay", 0),
        /** No answer: HTTP/1.1 closes the connection, HTTP/2 resets the stream (RST_STREAM). */
        DROP("drop", 0);

        private final String specName;
        private final int status;

        Kind(String specName, int status) {
            this.specName = specName;
            this.status = status;
        }

        /** The name in a fault spec: {@code 429}, {@code 503}, {@code 504}, {@code 507}, {@code delay}, {@code drop}. */
        public String specName() {
            return specName;
        }

        /** The status answered, or 0 for a delay or a drop. */
        public int status() {
            return status;
        }

        /**
         * The kind named {@code name} in a spec.
         *
         * @throws IllegalArgumentException naming the bad name and the good ones
         */
        public static Kind named(String name) {
            for (Kind kind : values())
                if (kind.specName.equals(name))
                    return kind;
            throw new IllegalArgumentException("fault '" + name + "' is not one of 429, 503, 504, 507, delay, drop");
        }

    }

    /**
     * A fault: its kind, and for {@link Kind#DELAY} how long.
     *
     * @param kind        the kind
     * @param delayMillis the delay in milliseconds, in [1, {@value FaultRule#MAX_DELAY_MILLIS}] for a delay, else 0
     */
    public record Fault(Kind kind, long delayMillis) {

        public Fault {
            Objects.requireNonNull(kind, "kind");
            if (kind == Kind.DELAY && (delayMillis < 1 || delayMillis > MAX_DELAY_MILLIS))
                throw new IllegalArgumentException("delay must be in [1, " + MAX_DELAY_MILLIS + "] ms, but was "
                                                   + delayMillis + " ms");
            if (kind != Kind.DELAY && delayMillis != 0)
                throw new IllegalArgumentException("fault '" + kind.specName + "' takes no delay");
        }

        public static Fault of(Kind kind) {
            return new Fault(kind, 0);
        }

        public static Fault delay(long millis) {
            return new Fault(Kind.DELAY, millis);
        }

        /** As in a spec: {@code 429}, {@code delay=250ms}, {@code drop}. */
        @Override
        public String toString() {
            return kind == Kind.DELAY ? "delay=" + delayMillis + "ms" : kind.specName;
        }

    }

    /** @throws IllegalArgumentException naming a share out of range, an unknown method or an empty filter */
    public FaultRule {
        Objects.requireNonNull(fault, "fault");
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(documentType, "documentType");
        Objects.requireNonNull(idPattern, "idPattern");
        if ( ! (percent > 0 && percent <= 100))
            throw new IllegalArgumentException("share of fault '" + fault + "' must be in (0, 100] percent, but was "
                                               + percent);
        method = method.map(m -> m.toUpperCase(Locale.ROOT));
        method.ifPresent(m -> {
            if ( ! METHODS.contains(m))
                throw new IllegalArgumentException("method '" + m + "' of fault '" + fault + "' is not one of "
                                                   + "GET, POST, PUT, DELETE, HEAD, PATCH");
        });
        documentType.ifPresent(type -> {
            if (type.isEmpty())
                throw new IllegalArgumentException("document type of fault '" + fault + "' must not be empty");
        });
        idPattern.ifPresent(pattern -> {
            if (pattern.isEmpty())
                throw new IllegalArgumentException("id pattern of fault '" + fault + "' must not be empty");
        });
    }

    /** A rule for every request. */
    public static FaultRule of(Fault fault, double percent) {
        return new FaultRule(fault, percent, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** Whether the rule names a document type or an id, so the request path must be parsed to match it. */
    boolean needsPath() {
        return documentType.isPresent() || idPattern.isPresent();
    }

    /**
     * Whether a request with {@code method}, to {@code documentType} and document {@code id} (if any) matches, where
     * {@code idRegex} is {@link #glob}{@code (idPattern)}, compiled once.
     */
    boolean matches(String method, Optional<String> documentType, Optional<String> id, Optional<Pattern> idRegex) {
        if (this.method.isPresent() && ! this.method.get().equals(method))
            return false;
        if (this.documentType.isPresent() && ! this.documentType.equals(documentType))
            return false;
        return idRegex.isEmpty() || (id.isPresent() && idRegex.get().matcher(id.get()).matches());
    }

    /** The regular expression of an id glob: {@code *} is any characters, everything else itself. */
    static Pattern glob(String glob) {
        StringBuilder regex = new StringBuilder();
        int start = 0;
        for (int star = glob.indexOf('*'); star >= 0; star = glob.indexOf('*', start)) {
            if (star > start)
                regex.append(Pattern.quote(glob.substring(start, star)));
            regex.append(".*");
            start = star + 1;
        }
        if (start < glob.length())
            regex.append(Pattern.quote(glob.substring(start)));
        return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }

    /** The rule's fields as the admin endpoint shows them, in order. */
    Map<String, Object> describe() {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("fault", fault.kind().specName());
        if (fault.kind() == Kind.DELAY)
            fields.put("delayMillis", fault.delayMillis());
        fields.put("percent", percent);
        method.ifPresent(m -> fields.put("method", m));
        documentType.ifPresent(t -> fields.put("type", t));
        idPattern.ifPresent(p -> fields.put("id", p));
        return fields;
    }

    /** As in a {@code --faults} spec, e.g. {@code 503@5%&method=PUT&type=music}. */
    @Override
    public String toString() {
        StringBuilder spec = new StringBuilder().append(fault).append('@').append(FaultSpec.percent(percent)).append('%');
        method.ifPresent(m -> spec.append("&method=").append(m));
        documentType.ifPresent(t -> spec.append("&type=").append(t));
        idPattern.ifPresent(p -> spec.append("&id=").append(p));
        return spec.toString();
    }

}
