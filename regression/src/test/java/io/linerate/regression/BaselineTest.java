package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BaselineTest {

    @Test
    void roundTripKeepsKeysUnitsRawSamplesTimesAndEnvironment() {
        Baseline b = Baseline.of(TestFiles.read("prefixes.log"), GateTest.ENV, GateTest.CREATED);
        Baseline back = Baseline.parse("baseline.json", b.toJson());
        assertThat(back.created()).isEqualTo("2026-01-05T10:00:00Z");
        assertThat(back.environment()).isEqualTo(GateTest.ENV);
        assertThat(back.series()).extracting(s -> s.key().display(), Baseline.Series::unit).containsExactly(
                org.assertj.core.api.Assertions.tuple("throughput/throughput@remote", "Mbit/s"),
                org.assertj.core.api.Assertions.tuple("throughput/throughput{streams=4}@local", "Mbit/s"),
                org.assertj.core.api.Assertions.tuple("ping/rtt_ns@local", "ns"));
        Baseline.Run rtt = back.series().get(2).runs().get(0);
        assertThat(rtt.samples()).containsExactly(18250, 18300);
        assertThat(rtt.times()).containsExactly(1, 2);
        assertThat(back.series().get(1).runs().get(0).run()).isEqualTo("r1");
        assertThat(back.toJson()).isEqualTo(b.toJson());
    }

    @Test
    void anotherVersionOrFormatIsAClearError() {
        assertThatThrownBy(() -> Baseline.parse("old.json", "{\"format\":\"linerate-baseline\",\"version\":2,\"series\":[]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline old.json has format version 2; this linerate reads version 1");
        assertThatThrownBy(() -> Baseline.parse("x.json", "{\"format\":\"something-else\",\"version\":1}"))
                .hasMessage("baseline x.json has format \"something-else\"; allowed: \"linerate-baseline\"");
        assertThatThrownBy(() -> Baseline.parse("x.json", "{\"format\":\"linerate-baseline\",\"version\":1}"))
                .hasMessage("baseline x.json has no \"series\" array; allowed: a linerate-baseline document as "
                        + "written by gate --save");
        assertThatThrownBy(() -> Baseline.parse("x.json", "{\"format\":"))
                .hasMessageStartingWith("baseline x.json is not valid JSON");
        assertThatThrownBy(() -> Baseline.parse("x.json", """
                {"format":"linerate-baseline","version":1,"series":[{"name":"a_mbps","host":"local","runs":[{"samples":["1"]}]}]}"""))
                .hasMessage("baseline x.json, series #1 (a_mbps@local): sample \"1\" is not allowed; allowed: a finite number");
    }
}
