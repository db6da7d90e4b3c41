package io.sluice.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static io.sluice.config.TestPackages.container;
import static io.sluice.config.TestPackages.loadContainer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DocumentApiReaderTest {

    @TempDir
    Path dir;

    /** {@code children} start on line 4. */
    private DocumentApiConfig documentApi(String children) {
        return container(dir, "<document-api>\n" + children + "</document-api>\n").documentApi().orElseThrow();
    }

    @Test
    void allOptions_apply() {
        DocumentApiConfig api = documentApi("""
                <max-document-size>2048MiB</max-document-size>
                <timeout>12.5</timeout>
                <ignore-undefined-fields>true</ignore-undefined-fields>
                <maxpendingdocs>1000</maxpendingdocs>
                <maxpendingbytes>5000000</maxpendingbytes>
                """);
        assertEquals(new DocumentApiConfig(2048L << 20, Duration.ofMillis(12_500), true, 1000, 5_000_000), api);
    }

    @Test
    void maxDocumentSizeInPlainBytes_isBytes() {
        assertEquals(3L << 20, documentApi("<max-document-size>3145728</max-document-size>\n").maxDocumentSize());
    }

    @Test
    void maxDocumentSizeInKiB_isConverted() {
        assertEquals(4096L << 10, documentApi("<max-document-size>4096KiB</max-document-size>\n").maxDocumentSize());
    }

    @Test
    void maxDocumentSizeAboveLimit_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> documentApi("<max-document-size>3GiB</max-document-size>\n"));
        assertEquals("services.xml:3: <document-api>: max-document-size must be in [1MiB, 2048MiB], but was 3221225472 bytes",
                     e.getMessage());
    }

    @Test
    void maxDocumentSizeMalformed_failsNamingLineAndValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> documentApi("<max-document-size>100MB</max-document-size>\n"));
        assertEquals("services.xml:4: <max-document-size>: '100MB' is not a valid size (bytes, or a number with B, KiB, MiB or GiB)",
                     e.getMessage());
    }

    @Test
    void ignoreUndefinedFieldsNotBoolean_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> documentApi("<ignore-undefined-fields>yes</ignore-undefined-fields>\n"));
        assertEquals("services.xml:4: <ignore-undefined-fields>: 'yes' is not a valid boolean (true or false)", e.getMessage());
    }

    @Test
    void zeroTimeout_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class, () -> documentApi("<timeout>0</timeout>\n"));
        assertEquals("services.xml:4: <timeout>: '0' is not a positive number of seconds", e.getMessage());
    }

    @Test
    void zeroMaxPendingDocs_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class, () -> documentApi("<maxpendingdocs>0</maxpendingdocs>\n"));
        assertEquals("services.xml:4: <maxpendingdocs>: '0' is not a positive integer", e.getMessage());
    }

    @Test
    void messageBusOptions_areAcceptedWithWarnings() {
        ApplicationPackage app = loadContainer(dir, """
                <document-api>
                  <route>default</route>
                  <binding>http://*/api/</binding>
                </document-api>
                """);
        assertEquals(List.of("services.xml:4: <route> in <document-api> has no effect in Sluice (no message bus), ignored",
                             "services.xml:5: <binding> in <document-api> has no effect in Sluice "
                             + "(/document/v1/ is always served at the root), ignored"),
                     app.warnings());
    }

    @Test
    void unknownChild_warns() {
        ApplicationPackage app = loadContainer(dir, "<document-api>\n<speed>fast</speed>\n</document-api>\n");
        assertEquals(List.of("services.xml:4: unknown element <speed> in <document-api>, ignored"), app.warnings());
    }

    @Test
    void repeatedOption_failsNamingSecond() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> documentApi("<timeout>1</timeout>\n<timeout>2</timeout>\n"));
        assertEquals("services.xml:5: <timeout> appears more than once in <document-api>", e.getMessage());
    }

    @Test
    void visitLimits_apply() {
        DocumentApiConfig api = documentApi("""
                <max-visits>64</max-visits>
                <max-visits-per-client>20</max-visits-per-client>
                <max-visits-per-connection>10</max-visits-per-connection>
                <visit-stall-timeout>7.5</visit-stall-timeout>
                """);
        assertEquals(new VisitLimits(64, 20, 10, Duration.ofMillis(7_500)), api.visits());
    }

    @Test
    void visitLimitsNotConfigured_areDefaults() {
        assertEquals(new VisitLimits(32, 16, 8, Duration.ofSeconds(30)), documentApi("").visits());
    }

    @Test
    void maxVisitsAlone_derivesTheShares() {
        assertEquals(new VisitLimits(8, 4, 2, Duration.ofSeconds(30)), documentApi("<max-visits>8</max-visits>\n").visits());
        assertEquals(new VisitLimits(1, 1, 1, Duration.ofSeconds(30)), documentApi("<max-visits>1</max-visits>\n").visits());
    }

    @Test
    void perClientAboveTotal_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class, () -> documentApi(
                "<max-visits>8</max-visits>\n<max-visits-per-client>9</max-visits-per-client>\n"));
        assertEquals("services.xml:3: <document-api>: max-visits-per-client must be in [1, max-visits = 8], but was 9",
                     e.getMessage());
    }

    @Test
    void perConnectionAboveTotal_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class, () -> documentApi(
                "<max-visits-per-connection>33</max-visits-per-connection>\n"));
        assertEquals("services.xml:3: <document-api>: max-visits-per-connection must be in [1, max-visits = 32], but was 33",
                     e.getMessage());
    }

    @Test
    void malformedVisitLimit_failsNamingLineAndValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> documentApi("<max-visits>many</max-visits>\n"));
        assertEquals("services.xml:4: <max-visits>: 'many' is not a positive integer", e.getMessage());
    }

    @Test
    void stallTimeoutOutOfRange_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> documentApi("<visit-stall-timeout>0.5</visit-stall-timeout>\n"));
        assertEquals("services.xml:3: <document-api>: visit-stall-timeout must be in [1, 3600] seconds, but was 0.5 seconds",
                     e.getMessage());
    }

}
