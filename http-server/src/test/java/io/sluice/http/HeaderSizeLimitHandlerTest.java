package io.sluice.http;

import org.eclipse.jetty.http.HttpURI;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class HeaderSizeLimitHandlerTest {

    @Test
    void authorityAndPathLengths_areThoseOfTheStringsJettyWouldBuild() {
        List<String> uris = List.of("http://127.0.0.1:8080/document/v1/ns/music/docid/1",
                                    "http://localhost/status.html",
                                    "https://[::1]:8443/document/v1/?cluster=content&selection=true",
                                    "http://example.com:9/p?",
                                    "http://example.com:65535/a%20b?x=%C3%A6&y",
                                    "http://h:10/",
                                    "http://h:99999/x");
        for (String text : uris) {
            HttpURI uri = HttpURI.from(text);
            assertEquals(uri.getAuthority().length(), HeaderSizeLimitHandler.authorityLength(uri), text);
            assertEquals(uri.getPathQuery().length(), HeaderSizeLimitHandler.pathQueryLength(uri), text);
        }
        HttpURI noHost = HttpURI.build().path("/only/a/path").query("q=1").asImmutable();
        assertEquals(0, HeaderSizeLimitHandler.authorityLength(noHost));
        assertEquals("/only/a/path?q=1".length(), HeaderSizeLimitHandler.pathQueryLength(noHost));
    }

}
