package io.sluice.container.faults;

import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.OptionalLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class FaultSpecTest {

    private static String error(String spec) {
        return assertThrows(IllegalArgumentException.class, () -> FaultSpec.parse(spec)).getMessage();
    }

    private static String jsonError(String body) {
        return assertThrows(IllegalArgumentException.class, () -> FaultSpec.parseJson(body)).getMessage();
    }

    @Test
    void parse_rulesWithFilters_roundTrips() {
        String spec = "429@20%,503@5%&method=PUT&type=music&id=id:ns:music::a*,delay=250ms@0.5%,drop@1%,504@1%,507@1%";
        FaultPlan plan = FaultSpec.parse(spec);
        assertEquals(new FaultRule(FaultRule.Fault.of(FaultRule.Kind.UNAVAILABLE), 5, Optional.of("PUT"), Optional.of("music"),
                                   Optional.of("id:ns:music::a*")),
                     plan.rules().get(1));
        assertEquals(FaultRule.of(FaultRule.Fault.delay(250), 0.5), plan.rules().get(2));
        assertEquals(spec, plan.toString());
        assertEquals(FaultPlan.NONE, FaultSpec.parse("none"));
    }

    @Test
    void parse_badSpecs_nameTheRuleAndTheProblem() {
        assertEquals("bad fault '418@5%': fault '418' is not one of 429, 503, 504, 507, delay, drop", error("418@5%"));
        assertEquals("bad fault '429': expected FAULT@PERCENT%, e.g. 429@20%", error("429"));
        assertEquals("bad fault '429@x%': share 'x' is not a number", error("429@x%"));
        assertEquals("bad fault '429@0%': share of fault '429' must be in (0, 100] percent, but was 0.0", error("429@0%"));
        assertEquals("bad fault 'delay=5s@1%': delay '5s' must be in milliseconds, e.g. delay=250ms", error("delay=5s@1%"));
        assertEquals("bad fault '503@1%&method=FETCH': method 'FETCH' of fault '503' is not one of GET, POST, PUT, DELETE, HEAD, PATCH",
                     error("503@1%&method=FETCH"));
        assertEquals("bad fault '503@1%&doc=x': 'doc' is not one of method, type, id", error("503@1%&doc=x"));
        assertEquals("the shares of faults that match the same requests add up to 110%, more than 100%: 429@60%,503@50%&method=PUT",
                     error("429@60%,503@50%&method=PUT"));
        assertEquals("fault spec is empty; write 'none' for no faults", error(" "));
    }

    @Test
    void parse_disjointFilters_mayAddUpToMoreThan100() {
        assertEquals(2, FaultSpec.parse("drop@100%&method=GET,429@50%&method=POST").rules().size());
    }

    @Test
    void parseJson_rulesAndSeed() {
        var parsed = FaultSpec.parseJson("{\"faults\":[{\"fault\":\"429\",\"percent\":20,\"method\":\"put\"},"
                                         + "{\"fault\":\"delay\",\"delayMillis\":100,\"percent\":1}],\"seed\":9}");
        assertEquals("429@20%&method=PUT,delay=100ms@1%", parsed.plan().toString());
        assertEquals(OptionalLong.of(9), parsed.seed());
    }

    @Test
    void parseJson_badBodies_nameTheProblem() {
        assertEquals("faults[0]: share of fault '503' must be in (0, 100] percent, but was 120.0",
                     jsonError("{\"faults\":[{\"fault\":\"503\",\"percent\":120}]}"));
        assertEquals("faults[0]: delayMillis is missing", jsonError("{\"faults\":[{\"fault\":\"delay\",\"percent\":1}]}"));
        assertEquals("faults[0].percent is missing", jsonError("{\"faults\":[{\"fault\":\"503\"}]}"));
        assertEquals("unknown field 'rules'; known: faults, seed", jsonError("{\"rules\":[]}"));
        assertEquals("'faults' is missing; send \"faults\": [] for none", jsonError("{\"seed\":1}"));
        assertEquals("the body must be a JSON object", jsonError("[]"));
    }

}
