package io.sluice.feed;

import java.util.List;

/** Several operations failed; thrown by {@link FeedClient#await(java.util.List)}. */
public class MultiFeedException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<FeedException> exceptions;

    public MultiFeedException(List<FeedException> exceptions) {
        super(exceptions.size() + " operations failed; first: " + exceptions.get(0).getMessage(), exceptions.get(0));
        this.exceptions = List.copyOf(exceptions);
    }

    public List<FeedException> feedExceptions() { return exceptions; }

}
