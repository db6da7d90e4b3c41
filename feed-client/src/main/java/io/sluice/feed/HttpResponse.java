package io.sluice.feed;

/** A response: status and body bytes. */
record HttpResponse(int code, byte[] body) { }
