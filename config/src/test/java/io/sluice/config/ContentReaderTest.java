package io.sluice.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.sluice.config.TestPackages.loadContent;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ContentReaderTest {

    private static final String MUSIC = "<documents><document type=\"music\" mode=\"index\"/></documents>\n";

    @TempDir
    Path dir;

    /** The content cluster {@code music}, whose {@code children} start on line 4. */
    private ContentCluster content(String children) {
        return loadContent(dir, children).services().content("music").orElseThrow();
    }

    @Test
    void fullCluster_isRead() {
        ContentCluster content = content("""
                <min-redundancy>2</min-redundancy>
                <documents>
                  <document type="music" mode="streaming" global="true"/>
                </documents>
                <nodes>
                  <node hostalias="node1" distribution-key="0"/>
                  <node hostalias="node2" distribution-key="1"/>
                </nodes>
                """);
        assertEquals(new ContentCluster("music",
                                        List.of(new ContentCluster.DocumentTypeRef("music", ContentCluster.Mode.STREAMING, true)),
                                        2,
                                        List.of(new ContentCluster.Node("node1", 0), new ContentCluster.Node("node2", 1)),
                                        ContentCluster.Engine.EMBEDDED, Optional.empty(), Map.of()),
                     content);
    }

    @Test
    void storeOnlyMode_isRead() {
        ContentCluster content = content("<documents><document type=\"music\" mode=\"store-only\"/></documents>\n");
        assertEquals(ContentCluster.Mode.STORE_ONLY, content.documents().get(0).mode());
    }

    @Test
    void noRedundancy_isOne() {
        assertEquals(1, content(MUSIC).minRedundancy());
    }

    @Test
    void olderRedundancyElement_isUsed() {
        assertEquals(3, content(MUSIC + "<redundancy>3</redundancy>\n").minRedundancy());
    }

    @Test
    void bothRedundancies_minRedundancyWinsWithWarning() {
        ApplicationPackage app = loadContent(dir, MUSIC + "<redundancy>3</redundancy>\n<min-redundancy>2</min-redundancy>\n");
        assertEquals(2, app.services().contents().get(0).minRedundancy());
        assertEquals(List.of("services.xml:5: <redundancy> in <content id='music'> ignored: <min-redundancy> takes precedence",
                             "services.xml:6: <content id='music'> asks for 2 copies, but the embedded engine keeps one "
                             + "copy in this process, ignored (it changes what survives a lost disk, not what is stored "
                             + "or served)"),
                     app.warnings());
    }

    @Test
    void minRedundancyOnCassandra_isNotWarned() {
        ApplicationPackage app = loadContent(dir, MUSIC + "<min-redundancy>2</min-redundancy>\n<engine><cassandra/></engine>\n");
        assertEquals(List.of(), app.warnings());
    }

    @Test
    void severalNodes_warnTheyDoNothing() {
        ApplicationPackage app = loadContent(dir, MUSIC + "<nodes>\n<node hostalias=\"a\" distribution-key=\"0\"/>\n"
                                                  + "<node hostalias=\"b\" distribution-key=\"1\"/>\n</nodes>\n");
        assertEquals(List.of("services.xml:5: <content id='music'> lists 2 <node>s, but Sluice serves the cluster from "
                             + "this one process (its engine decides where the data lives), ignored"),
                     app.warnings());
    }

    @Test
    void zeroRedundancy_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class, () -> content(MUSIC + "<min-redundancy>0</min-redundancy>\n"));
        assertEquals("services.xml:5: <min-redundancy>: '0' is not a positive integer", e.getMessage());
    }

    @Test
    void unknownMode_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> content("<documents>\n<document type=\"music\" mode=\"fast\"/>\n</documents>\n"));
        assertEquals("services.xml:5: <document type='music'> mode: 'fast' is not one of index, store-only, streaming",
                     e.getMessage());
    }

    @Test
    void globalNotBoolean_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> content("<documents>\n<document type=\"music\" mode=\"index\" global=\"yes\"/>\n</documents>\n"));
        assertEquals("services.xml:5: <document type='music'> global: 'yes' is not a valid boolean (true or false)",
                     e.getMessage());
    }

    @Test
    void documentTypeWithoutSchema_failsNamingTypeAndExpectedFile() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> content("<documents>\n<document type=\"books\" mode=\"index\"/>\n</documents>\n"));
        assertEquals("services.xml:5: <document type='books'>: no schema for type 'books' (expected schemas/books.sd)",
                     e.getMessage());
    }

    @Test
    void noDocuments_failsNamingCluster() {
        ConfigException e = assertThrows(ConfigException.class, () -> content(""));
        assertEquals("services.xml:3: <content id='music'> has no <document>", e.getMessage());
    }

    @Test
    void duplicateDistributionKey_failsNamingKey() {
        ConfigException e = assertThrows(ConfigException.class, () -> content(MUSIC + """
                <nodes>
                  <node hostalias="a" distribution-key="0"/>
                  <node hostalias="b" distribution-key="0"/>
                </nodes>
                """));
        assertEquals("services.xml:3: <content id='music'> has distribution-key 0 twice", e.getMessage());
    }

    @Test
    void negativeDistributionKey_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> content(MUSIC + "<nodes>\n<node hostalias=\"a\" distribution-key=\"-1\"/>\n</nodes>\n"));
        assertEquals("services.xml:6: <node> distribution-key: '-1' is not a non-negative integer", e.getMessage());
    }

    @Test
    void nodeWithoutDistributionKey_failsNamingAttribute() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> content(MUSIC + "<nodes>\n<node hostalias=\"a\"/>\n</nodes>\n"));
        assertEquals("services.xml:6: <node> needs a non-empty 'distribution-key' attribute", e.getMessage());
    }

    @Test
    void protonEngine_isEmbeddedWithItsAttributesAsOptions() {
        ContentCluster content = content(MUSIC + "<engine><proton sync=\"true\"/></engine>\n");
        assertEquals(List.of(ContentCluster.Engine.EMBEDDED, Map.of("sync", "true")),
                     List.of(content.engine(), content.engineOptions()));
    }

    @Test
    void protonTuningChildren_areWarnedWithTheirLines() {
        ApplicationPackage app = loadContent(dir, MUSIC + "<engine><proton>\n<searchable-copies>1</searchable-copies>\n"
                                                  + "<flush-on-shutdown>true</flush-on-shutdown>\n"
                                                  + "<visibility-delay>1.0</visibility-delay>\n"
                                                  + "<sync-transactionlog>true</sync-transactionlog>\n</proton></engine>\n");
        String why = " in <proton> tunes Vespa's search engine and has no effect on Sluice's embedded engine, ignored";
        assertEquals(List.of("services.xml:6: <searchable-copies>" + why, "services.xml:7: <flush-on-shutdown>" + why,
                             "services.xml:8: <visibility-delay>" + why, "services.xml:9: <sync-transactionlog>" + why),
                     app.warnings());
        assertEquals(Map.of(), app.services().contents().get(0).engineOptions());
    }

    @Test
    void selections_combinePerTypeAndForAllTypes_andGarbageCollectionDefaultsToAnHour() {
        ApplicationPackage app = TestPackages.load(dir, """
                <services>
                  <container/>
                  <content id="music">
                    <documents garbage-collection="true" selection="id.namespace != 'test'">
                      <document type="music" mode="index" selection="music.year > now() - 86400"/>
                      <document type="book" mode="index"/>
                    </documents>
                  </content>
                </services>
                """, "music", "book");
        ContentCluster content = app.services().contents().get(0);
        assertEquals(Optional.of("(id.namespace != 'test') and ((music and (music.year > now() - 86400)) or book)"),
                     content.selection());
        assertEquals(Optional.of(ContentCluster.DEFAULT_GARBAGE_COLLECTION_INTERVAL), content.garbageCollectionInterval());
        assertEquals(List.of(), app.warnings());
    }

    @Test
    void garbageCollectionWithoutSelection_isWarnedAndOff() {
        ApplicationPackage app = TestPackages.load(dir, """
                <services>
                  <container/>
                  <content id="music">
                    <documents garbage-collection="true"><document type="music" mode="index"/></documents>
                  </content>
                </services>
                """, "music");
        assertEquals(List.of("services.xml:4: garbage-collection='true' of <documents> without a document selection "
                             + "removes nothing, ignored"), app.warnings());
        assertEquals(Optional.empty(), app.services().contents().get(0).garbageCollectionInterval());
    }

    @Test
    void emptySelection_isAnError() {
        ConfigException e = assertThrows(ConfigException.class, () -> TestPackages.load(dir, """
                <services>
                  <container/>
                  <content id="music">
                    <documents selection=" "><document type="music" mode="index"/></documents>
                  </content>
                </services>
                """, "music"));
        assertTrue(e.getMessage().startsWith("services.xml:4: attribute 'selection' of <documents"), e.getMessage());
    }

    @Test
    void garbageCollectionFalse_isAcceptedAndItsIntervalWarned() {
        ApplicationPackage app = TestPackages.load(dir, """
                <services>
                  <container/>
                  <content id="music">
                    <documents garbage-collection="false" garbage-collection-interval="60">
                      <document type="music" mode="index"/>
                    </documents>
                  </content>
                </services>
                """, "music");
        assertEquals(List.of("services.xml:4: attribute 'garbage-collection-interval' of <documents> has no effect "
                             + "without garbage-collection='true', ignored"), app.warnings());
    }

    @Test
    void embeddedEngine_dataDirectoryResolvesAgainstPackage() {
        ContentCluster content = content(MUSIC + "<engine><embedded sync=\"true\" data-directory=\"data/x\"/></engine>\n");
        assertEquals(List.of(Optional.of(dir.toAbsolutePath().resolve("data/x")), Map.of("sync", "true")),
                     List.of(content.dataDirectory(), content.engineOptions()));
    }

    @Test
    void memoryEngine_isSelected() {
        assertEquals(ContentCluster.Engine.MEMORY, content(MUSIC + "<engine><memory/></engine>\n").engine());
    }

    @Test
    void cassandraEngine_keepsAttributesAndTextChildrenAsOptions() {
        ContentCluster content = content(MUSIC + """
                <engine>
                  <cassandra contact-points="127.0.0.1:9042" keyspace="sluice">
                    <consistency>LOCAL_QUORUM</consistency>
                  </cassandra>
                </engine>
                """);
        assertEquals(List.of(ContentCluster.Engine.CASSANDRA,
                             Map.of("contact-points", "127.0.0.1:9042", "keyspace", "sluice", "consistency", "LOCAL_QUORUM")),
                     List.of(content.engine(), content.engineOptions()));
    }

    @Test
    void dataDirectoryOnCassandra_warnsAndIsDropped() {
        ApplicationPackage app = loadContent(dir, MUSIC + "<engine>\n<cassandra data-directory=\"d\"/>\n</engine>\n");
        assertEquals(Optional.empty(), app.services().contents().get(0).dataDirectory());
        assertEquals(List.of("services.xml:6: data-directory of <cassandra> has no effect: only the embedded engine keeps files, ignored"),
                     app.warnings());
    }

    @Test
    void unknownEngine_failsNamingIt() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> content(MUSIC + "<engine>\n<rocksdb/>\n</engine>\n"));
        assertEquals("services.xml:6: <engine>: <rocksdb> is not one of <embedded/>, <proton/>, <memory/>, <cassandra/>",
                     e.getMessage());
    }

    @Test
    void twoEngines_failsNamingCount() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> content(MUSIC + "<engine><memory/><embedded/></engine>\n"));
        assertEquals("services.xml:5: <engine> needs exactly one of <embedded/>, <proton/>, <memory/>, <cassandra/>, "
                     + "but has 2 elements", e.getMessage());
    }

    @Test
    void nestedEngineOption_warnsUnsupported() {
        ApplicationPackage app = loadContent(dir, MUSIC + "<engine><proton>\n<tuning><x/></tuning>\n</proton></engine>\n");
        assertEquals(List.of("services.xml:6: <tuning> in <proton> tunes Vespa's search engine and has no effect on "
                             + "Sluice's embedded engine, ignored"), app.warnings());
    }

    @Test
    void group_warnsUnsupported() {
        ApplicationPackage app = loadContent(dir, MUSIC + "<group/>\n");
        assertEquals(List.of("services.xml:5: unsupported element <group> in <content>, ignored"), app.warnings());
    }

    @Test
    void contentWithoutId_isNamedContent() {
        ApplicationPackage app = TestPackages.load(dir, "<services><container/><content>" + MUSIC + "</content></services>", "music");
        assertEquals("content", app.services().contents().get(0).id());
    }

}
