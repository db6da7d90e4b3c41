package io.sluice.config;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Walks every services.xml element and attribute Sluice knows (see the table in config/README.md), each in a package of
 * its own written for this test, and checks it is implemented (no warning, and the model shows it), warned (exactly one
 * warning naming it and its line) or refused (start-up fails naming it and its line): never silently dropped.
 */
class ServicesCatalogueTest {

    @TempDir
    Path dir;

    private enum Status { IMPLEMENTED, WARNED, REFUSED }

    /**
     * @param name     what the warning or error must name, e.g. {@code <clients>} or {@code 'selection'}
     * @param services the whole services.xml
     * @param line     the line the construct is on
     * @param applied  for implemented constructs: how the model shows it
     */
    private record Construct(String name, Status status, String services, int line, Predicate<ApplicationPackage> applied) {
        @Override
        public String toString() {
            return status + " " + name + ": " + services.lines().skip(line - 1).findFirst().orElse("").trim();
        }
    }

    private static final String MUSIC = "<documents><document type=\"music\" mode=\"index\"/></documents>";

    /** The snippet inside {@code <container>}, on line 3. */
    private static Construct container(String name, Status status, String snippet, Predicate<ContainerCluster> applied) {
        return new Construct(name, status, "<services version=\"1.0\">\n<container id=\"default\" version=\"1.0\">\n"
                                           + snippet + "\n</container>\n</services>\n", 3,
                             app -> applied.test(app.services().served()));
    }

    private static Construct container(String name, Status status, String snippet) {
        return container(name, status, snippet, c -> true);
    }

    /** The snippet inside {@code <content id="music">} after its documents, on line 5. */
    private static Construct content(String name, Status status, String snippet, Predicate<ContentCluster> applied) {
        return new Construct(name, status, "<services version=\"1.0\">\n<container version=\"1.0\"/>\n"
                                           + "<content id=\"music\" version=\"1.0\">\n" + MUSIC + "\n" + snippet
                                           + "\n</content>\n</services>\n", 5,
                             app -> applied.test(app.services().contents().get(0)));
    }

    private static Construct content(String name, Status status, String snippet) {
        return content(name, status, snippet, c -> true);
    }

    /** A {@code <documents>} element of content cluster music, on line 4. */
    private static Construct documents(String name, Status status, String documents, Predicate<ContentCluster> applied) {
        return new Construct(name, status, "<services version=\"1.0\">\n<container version=\"1.0\"/>\n"
                                           + "<content id=\"music\" version=\"1.0\">\n" + documents
                                           + "\n</content>\n</services>\n", 4,
                             app -> applied.test(app.services().contents().get(0)));
    }

    private static Construct documents(String name, Status status, String documents) {
        return documents(name, status, documents, c -> true);
    }

    /** The snippet inside {@code <services>}, on line 3. */
    private static Construct root(String name, Status status, String snippet) {
        return new Construct(name, status, "<services version=\"1.0\">\n<container version=\"1.0\"/>\n" + snippet
                                           + "\n</services>\n", 3, app -> true);
    }

    static Stream<Construct> constructs() {
        return Stream.of(
                // <services>
                root("<content>", Status.IMPLEMENTED, "<content id=\"music\">" + MUSIC + "</content>"),
                root("<container id='second'>", Status.WARNED, "<container id=\"second\"><http><server id=\"b\" port=\"9090\"/></http></container>"),
                root("<admin>", Status.WARNED, "<admin version=\"2.0\"><adminserver hostalias=\"node1\"/></admin>"),
                root("<routing>", Status.WARNED, "<routing version=\"1.0\"/>"),
                root("<config name='a.b'>", Status.WARNED, "<config name=\"a.b\"/>"),
                root("<jdisc>", Status.WARNED, "<jdisc version=\"1.0\"/>"),
                root("<include>", Status.WARNED, "<include dir=\"more\"/>"),
                new Construct("<nodes deploy:environment='dev'>", Status.WARNED,
                              "<services version=\"1.0\" xmlns:deploy=\"vespa\">\n<container version=\"1.0\">\n"
                              + "<nodes deploy:environment=\"dev\" count=\"1\"/>\n</container>\n</services>\n", 3, app -> true),

                // <container>
                container("<http>", Status.IMPLEMENTED, "<http><server id=\"s\" port=\"8081\"/></http>",
                          c -> c.servers().get(0).id().equals("s") && c.servers().get(0).port() == 8081),
                container("<document-api>", Status.IMPLEMENTED, "<document-api><timeout>5</timeout><maxpendingdocs>7</maxpendingdocs></document-api>",
                          c -> c.documentApi().orElseThrow().timeout().equals(Duration.ofSeconds(5))
                               && c.documentApi().get().maxPendingDocs() == 7),
                container("<handler>", Status.IMPLEMENTED, "<handler id=\"h\"><binding>http://*/h/*</binding></handler>",
                          c -> c.handlers().get(0).bindings().equals(List.of("http://*/h/*"))),
                container("<accesslog>", Status.IMPLEMENTED, "<accesslog type=\"json\" file=\"access.json\"/>",
                          c -> c.accessLog().enabled()),
                container("<config name='jdisc.http.server'>", Status.IMPLEMENTED,
                          "<config name=\"jdisc.http.server\"><stopTimeout>5</stopTimeout></config>",
                          c -> c.stopTimeout().equals(Duration.ofSeconds(5))),
                container("<config name='jdisc.http.connector'>", Status.IMPLEMENTED,
                          "<http><server id=\"s\"><config name=\"jdisc.http.connector\"><idleTimeout>9</idleTimeout></config></server></http>",
                          c -> c.servers().get(0).connector().idleTimeout().equals(Duration.ofSeconds(9))),
                container("type 'vespa'", Status.WARNED, "<accesslog type=\"vespa\"/>"),
                container("<route>", Status.WARNED, "<document-api><route>indexing</route></document-api>"),
                container("<nodes>", Status.WARNED, "<nodes count=\"2\"/>"),
                container("<search>", Status.WARNED, "<search/>"),
                container("<document-processing>", Status.WARNED, "<document-processing/>"),
                container("<processing>", Status.WARNED, "<processing/>"),
                container("<model-evaluation>", Status.WARNED, "<model-evaluation/>"),
                container("<component id='c'>", Status.WARNED, "<component id=\"c\" class=\"com.example.C\"/>"),
                container("<components>", Status.WARNED, "<components/>"),
                container("<secret-store type='oath-ckms'>", Status.WARNED, "<secret-store type=\"oath-ckms\"/>"),
                container("<secrets>", Status.WARNED, "<secrets><apiKey vault=\"v\" name=\"k\"/></secrets>"),
                container("<zookeeper>", Status.WARNED, "<zookeeper/>"),
                container("'com.example.def'", Status.WARNED, "<config name=\"com.example.def\"/>"),
                container("<something-new>", Status.WARNED, "<something-new/>"),
                container("<clients>", Status.IMPLEMENTED, "<clients><client id=\"c\" permissions=\"read\"><token id=\"t\"/></client></clients>",
                          c -> c.clients().size() == 1 && c.clients().get(0).tokenIds().equals(List.of("t"))),
                container("<client-authorize>", Status.REFUSED, "<client-authorize/>"),
                container("<documentprocessor>", Status.REFUSED,
                          "<document-processing><chain id=\"default\"><documentprocessor id=\"com.example.Enrich\"/>"
                          + "</chain></document-processing>"),
                container("<filtering>", Status.REFUSED, "<http><filtering/><server id=\"s\"/></http>"),
                container("<ssl-provider>", Status.REFUSED, "<http><server id=\"s\"><ssl-provider class=\"x\"/></server></http>"),

                // <content>
                content("<min-redundancy>", Status.IMPLEMENTED, "<min-redundancy>1</min-redundancy>", c -> c.minRedundancy() == 1),
                content("<min-redundancy> on cassandra", Status.IMPLEMENTED,
                        "<min-redundancy>2</min-redundancy><engine><cassandra keyspace=\"k\"/></engine>",
                        c -> c.minRedundancy() == 2 && c.engineOptions().equals(Map.of("keyspace", "k"))),
                content("<engine><memory/>", Status.IMPLEMENTED, "<engine><memory/></engine>",
                        c -> c.engine() == ContentCluster.Engine.MEMORY),
                content("<engine><embedded/>", Status.IMPLEMENTED, "<engine><embedded sync=\"true\"/></engine>",
                        c -> c.engine() == ContentCluster.Engine.EMBEDDED && c.engineOptions().equals(Map.of("sync", "true"))),
                content("<nodes><node>", Status.IMPLEMENTED, "<nodes><node hostalias=\"a\" distribution-key=\"0\"/></nodes>",
                        c -> c.nodes().size() == 1),
                content("copies", Status.WARNED, "<min-redundancy>2</min-redundancy>"),
                content("<node>s", Status.WARNED,
                        "<nodes><node hostalias=\"a\" distribution-key=\"0\"/><node hostalias=\"b\" distribution-key=\"1\"/></nodes>"),
                content("<searchable-copies>", Status.WARNED, "<engine><proton><searchable-copies>2</searchable-copies></proton></engine>"),
                content("<resources>", Status.WARNED, "<nodes><resources vcpu=\"4\" memory=\"16Gb\" disk=\"100Gb\"/><node hostalias=\"a\" distribution-key=\"0\"/></nodes>"),
                content("<group>", Status.WARNED, "<group/>"),
                content("<tuning>", Status.WARNED, "<tuning/>"),
                content("<search>", Status.WARNED, "<search/>"),
                content("<dispatch>", Status.WARNED, "<dispatch/>"),
                content("<coverage-policy>", Status.WARNED, "<coverage-policy/>"),
                content("<experimental>", Status.WARNED, "<experimental/>"),

                // <documents>
                documents("garbage-collection='true'", Status.IMPLEMENTED,
                          "<documents garbage-collection=\"true\" garbage-collection-interval=\"60\" selection=\"music.year &gt; 2000\">"
                          + "<document type=\"music\" mode=\"index\"/></documents>",
                          c -> c.garbageCollectionInterval().equals(java.util.Optional.of(Duration.ofSeconds(60)))),
                documents("'selection'", Status.IMPLEMENTED,
                          "<documents><document type=\"music\" mode=\"index\" selection=\"music.year &gt; 2000\"/></documents>",
                          c -> c.selection().equals(java.util.Optional.of("((music and (music.year > 2000)))"))),
                documents("garbage-collection='true' of <documents> without a document selection", Status.WARNED,
                          "<documents garbage-collection=\"true\"><document type=\"music\" mode=\"index\"/></documents>"),
                documents("'garbage-collection-interval'", Status.WARNED,
                          "<documents garbage-collection-interval=\"60\"><document type=\"music\" mode=\"index\"/></documents>"),
                documents("<document-processing>", Status.WARNED,
                          "<documents><document type=\"music\" mode=\"index\"/><document-processing cluster=\"dp\"/></documents>"));
    }

    @ParameterizedTest
    @MethodSource("constructs")
    void construct_isImplementedWarnedOrRefused_neverDropped(Construct construct) {
        String where = "services.xml:" + construct.line() + ": ";
        switch (construct.status()) {
            case IMPLEMENTED: {
                ApplicationPackage app = TestPackages.load(dir, construct.services(), "music");
                assertEquals(List.of(), app.warnings());
                assertTrue(construct.applied().test(app), "the model does not show " + construct.name());
                break;
            }
            case WARNED: {
                ApplicationPackage app = TestPackages.load(dir, construct.services(), "music");
                assertEquals(1, app.warnings().size(), app.warnings().toString());
                String warning = app.warnings().get(0);
                assertTrue(warning.startsWith(where) && warning.contains(construct.name()), warning);
                break;
            }
            case REFUSED: {
                ConfigException e = assertThrows(ConfigException.class,
                                                 () -> TestPackages.load(dir, construct.services(), "music"));
                assertTrue(e.getMessage().startsWith(where) && e.getMessage().contains(construct.name())
                           && e.getMessage().contains("not supported"), e.getMessage());
                break;
            }
        }
    }

}
