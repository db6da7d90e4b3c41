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

class ConnectorReaderTest {

    @TempDir
    Path dir;

    /** A server on line 4 whose connector config starts on line 5; {@code fields} start on line 6. */
    private static String server(String fields) {
        return "<http>\n<server id=\"a\" port=\"8080\">\n<config name=\"jdisc.http.connector\">\n" + fields
               + "</config>\n</server>\n</http>\n";
    }

    private ConnectorConfig connector(String fields) {
        return container(dir, server(fields)).servers().get(0).connector();
    }

    @Test
    void noOverrides_areVespaDefaults() {
        assertEquals(new ConnectorConfig(Duration.ofSeconds(180), Duration.ofSeconds(600), 512, 16 << 20, 1 << 20, 50_000,
                                         65536, 65536, 65536),
                     connector(""));
    }

    @Test
    void allOverrides_applyInSecondsAndBytes() {
        ConnectorConfig connector = connector("""
                <idleTimeout>90</idleTimeout>
                <requestHeaderSize>32768</requestHeaderSize>
                <responseHeaderSize>16384</responseHeaderSize>
                <outputBufferSize>8192</outputBufferSize>
                <http2>
                  <streamIdleTimeout>0.5</streamIdleTimeout>
                  <maxConcurrentStreams>100</maxConcurrentStreams>
                  <initialSessionWindowSize>1048576</initialSessionWindowSize>
                  <initialStreamWindowSize>65536</initialStreamWindowSize>
                  <maxRateControlEvents>1000</maxRateControlEvents>
                </http2>
                """);
        assertEquals(new ConnectorConfig(Duration.ofSeconds(90), Duration.ofMillis(500), 100, 1 << 20, 65536, 1000,
                                         32768, 16384, 8192),
                     connector);
    }

    @Test
    void rateControlEventsZero_meansJettyDefault() {
        assertEquals(128, connector("<http2><maxRateControlEvents>0</maxRateControlEvents></http2>\n").maxRateControlEvents());
    }

    @Test
    void rateControlEventsMinusOne_meansNoLimit() {
        assertEquals(Integer.MAX_VALUE,
                     connector("<http2><maxRateControlEvents>-1</maxRateControlEvents></http2>\n").maxRateControlEvents());
    }

    @Test
    void invalidIdleTimeout_failsNamingLineElementAndValue() {
        ConfigException e = assertThrows(ConfigException.class, () -> connector("<idleTimeout>soon</idleTimeout>\n"));
        assertEquals("services.xml:6: <idleTimeout>: 'soon' is not a positive number of seconds", e.getMessage());
    }

    @Test
    void zeroIdleTimeout_failsNamingSetting() {
        ConfigException e = assertThrows(ConfigException.class, () -> connector("<idleTimeout>0</idleTimeout>\n"));
        assertEquals("services.xml:6: <idleTimeout>: '0' is not a positive number of seconds", e.getMessage());
    }

    @Test
    void negativeMaxConcurrentStreams_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> connector("<http2>\n<maxConcurrentStreams>-5</maxConcurrentStreams>\n</http2>\n"));
        assertEquals("services.xml:7: <maxConcurrentStreams>: '-5' is not a positive integer", e.getMessage());
    }

    @Test
    void sessionWindowBelowHttp2Default_failsNamingValue() {
        ConfigException e = assertThrows(ConfigException.class,
                                         () -> connector("<http2><initialSessionWindowSize>1024</initialSessionWindowSize></http2>\n"));
        assertEquals("services.xml:5: <config name='jdisc.http.connector'>: initialSessionRecvWindow must be at least 65535 (the HTTP/2 initial window), "
                     + "but was 1024", e.getMessage());
    }

    @Test
    void vespaFieldWithoutEffect_warns() {
        ApplicationPackage app = loadContainer(dir, server("<tcpNoDelay>false</tcpNoDelay>\n"));
        assertEquals(List.of("services.xml:6: <tcpNoDelay> in <config> has no effect in Sluice (not configurable), ignored"),
                     app.warnings());
    }

    @Test
    void listenPort_warnsToUsePortAttribute() {
        ApplicationPackage app = loadContainer(dir, server("<listenPort>9000</listenPort>\n"));
        assertEquals(List.of("services.xml:6: <listenPort> in <config> has no effect in Sluice "
                             + "(set the port attribute of <server>), ignored"), app.warnings());
    }

    @Test
    void unknownHttp2Field_warns() {
        ApplicationPackage app = loadContainer(dir, server("<http2>\n<pushEnabled>true</pushEnabled>\n</http2>\n"));
        assertEquals(List.of("services.xml:7: unknown element <pushEnabled> in <http2>, ignored"), app.warnings());
    }

    @Test
    void otherConfigInServer_warns() {
        ApplicationPackage app = loadContainer(dir, "<http><server id=\"a\">\n<config name=\"foo.bar\"/>\n</server></http>\n");
        assertEquals(List.of("services.xml:4: unsupported config 'foo.bar' in <server id='a'>, ignored"), app.warnings());
    }

    @Test
    void overridesApplyPerServer() {
        ContainerCluster container = container(dir, """
                <http>
                  <server id="a" port="8080"><config name="jdisc.http.connector"><idleTimeout>5</idleTimeout></config></server>
                  <server id="b" port="8081"/>
                </http>
                """);
        assertEquals(List.of(Duration.ofSeconds(5), Duration.ofSeconds(180)),
                     container.servers().stream().map(s -> s.connector().idleTimeout()).toList());
    }

}
