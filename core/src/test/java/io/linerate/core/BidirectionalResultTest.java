package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.sink.JsonObject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BidirectionalResultTest {
    private static final TransferSpec SPEC = TransferSpec.builder().build();

    /** One direction: a fixed metric list, validity and detail. */
    private record Side(List<Metric> metrics, List<String> invalidReasons, String tag) implements MeasurementResult {
        @Override
        public MeasurementSpec spec() {
            return SPEC;
        }

        @Override
        public JsonObject detailJson() {
            return JsonObject.create().put("tag", tag);
        }
    }

    private record Pair(Side forward, Side reverse) implements BidirectionalResult {}

    private static Side side(double mbps, String tag, String... invalid) {
        Metric m = new Metric("tcp4_mbps", mbps, "Mbit/s", "remote", 2.0, Map.of("streams", "1"), Better.HIGHER, true);
        return new Side(List.of(m), List.of(invalid), tag);
    }

    @Test
    void eachDirectionsMetricsKeepTheirFieldsAndGainTheirDirection() {
        List<Metric> m = new Pair(side(940.5, "f"), side(12.25, "r")).metrics();

        assertThat(m).extracting(Metric::value).containsExactly(940.5, 12.25);
        assertThat(m).extracting(x -> x.labels().get("direction")).containsExactly("forward", "reverse");
        assertThat(m).allSatisfy(x -> {
            assertThat(x.labels()).containsEntry("streams", "1");
            assertThat(x).extracting(Metric::name, Metric::unit, Metric::host, Metric::timeSeconds, Metric::better,
                    Metric::advisory).containsExactly("tcp4_mbps", "Mbit/s", "remote", 2.0, Better.HIGHER, true);
        });
    }

    @Test
    void oneInvalidDirectionMakesThePairInvalidAndLeavesNoMetrics() {
        Pair p = new Pair(side(1, "f"), side(2, "r", "the server died", "short window"));

        assertThat(p.valid()).isFalse();
        assertThat(p.invalidReasons()).containsExactly("reverse: the server died", "reverse: short window");
        assertThat(p.metrics()).isEmpty();
    }

    @Test
    void detailHoldsBothDirectionsAndTheSpecIsTheForwardOnes() {
        Pair p = new Pair(side(1, "f"), side(2, "r"));

        assertThat(p.detailJson().toJson()).isEqualTo("{\"forward\":{\"tag\":\"f\"},\"reverse\":{\"tag\":\"r\"}}");
        assertThat(p.spec()).isSameAs(SPEC);
        assertThat(p.valid()).isTrue();
    }
}
