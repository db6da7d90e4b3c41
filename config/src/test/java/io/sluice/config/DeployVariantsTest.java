package io.sluice.config;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class DeployVariantsTest {

    @TempDir
    Path dir;

    private ApplicationPackage load(String namespace, String contentChildren) {
        return TestPackages.load(dir, "<services version=\"1.0\" xmlns:" + namespace + "=\"vespa\">\n"
                                      + "<container id=\"default\" version=\"1.0\"><document-api/></container>\n"
                                      + "<content id=\"music\" version=\"1.0\">\n"
                                      + "<documents><document type=\"music\" mode=\"index\"/></documents>\n"
                                      + contentChildren
                                      + "</content>\n</services>\n",
                                 "music");
    }

    @Test
    void nodesPerEnvironment_keepsTheProdOne_leavesOutTheOthersNamingThem() {
        ApplicationPackage app = load("deploy", "<nodes count=\"1\"/>\n"
                                                + "<nodes deploy:environment=\"dev\" count=\"1\"/>\n"
                                                + "<nodes deploy:environment=\"prod\"><node hostalias=\"a\" distribution-key=\"7\"/></nodes>\n");
        assertEquals(7, app.services().contents().get(0).nodes().get(0).distributionKey());
        String zone = " (Sluice is deployed as self-hosted Vespa is, to environment 'prod' and region 'default'), left out";
        assertEquals(List.of("services.xml:5: <nodes> is overridden by <nodes deploy:environment='prod'> on line 7" + zone,
                             "services.xml:6: <nodes deploy:environment='dev'> is for another zone" + zone),
                     app.warnings());
    }

    @Test
    void regionAndEnvironment_winOverEnvironmentAlone_andOtherRegionsAreLeftOut() {
        ApplicationPackage app = load("deploy", "<nodes deploy:environment=\"prod\"><node hostalias=\"a\" distribution-key=\"1\"/></nodes>\n"
                                                + "<nodes deploy:environment=\"prod\" deploy:region=\"aws-us-east-1c\"><node hostalias=\"b\" distribution-key=\"2\"/></nodes>\n"
                                                + "<nodes deploy:environment=\"dev prod\" deploy:region=\"default\"><node hostalias=\"c\" distribution-key=\"3\"/></nodes>\n");
        assertEquals(3, app.services().contents().get(0).nodes().get(0).distributionKey());
        assertEquals(2, app.warnings().size(), app.warnings().toString());
    }

    @Test
    void onlyOtherZones_leavesTheElementOut_asIfAbsent() {
        ApplicationPackage app = load("deploy", "<min-redundancy deploy:environment=\"dev\">1</min-redundancy>\n"
                                                + "<min-redundancy>1</min-redundancy>\n"
                                                + "<nodes deploy:tags=\"beta\"><node hostalias=\"a\" distribution-key=\"0\"/></nodes>\n");
        assertEquals(List.of(), app.services().contents().get(0).nodes());
        assertEquals(2, app.warnings().size(), app.warnings().toString());
    }

    @Test
    void anyPrefixBoundToTheNamespace_isRead() {
        ApplicationPackage app = load("d", "<nodes d:environment=\"dev\"><node hostalias=\"a\" distribution-key=\"0\"/></nodes>\n");
        assertEquals(List.of(), app.services().contents().get(0).nodes());
        assertEquals(List.of("services.xml:5: <nodes deploy:environment='dev'> is for another zone (Sluice is deployed as "
                             + "self-hosted Vespa is, to environment 'prod' and region 'default'), left out"),
                     app.warnings());
    }

    @Test
    void matchingElement_isReadWithoutItsDeployAttributes() {
        ApplicationPackage app = load("deploy", "<nodes deploy:environment=\"prod\" deploy:instance=\"default\">"
                                                + "<node hostalias=\"a\" distribution-key=\"0\"/></nodes>\n");
        assertEquals(List.of(), app.warnings());
    }

}
