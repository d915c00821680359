package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Baselines saved before one quantity had one key (format 1 and 2) gate runs keyed today's way. */
class LegacyKeysTest {

    private static String series(String test, String name, String host, String labels, double value) {
        return "{\"test\":\"" + test + "\",\"name\":\"" + name + "\",\"host\":\"" + host + "\",\"labels\":" + labels
                + ",\"unit\":\"Mbit/s\",\"runs\":[{\"run\":\"old.log\",\"samples\":[" + value + "],\"times\":[1.0]}]}";
    }

    private static SeriesKey key(String test, String name, String host, String direction) {
        TreeMap<String, String> labels = new TreeMap<>();
        if (direction != null) {
            labels.put("direction", direction);
        }
        return new SeriesKey(test, name, host, labels);
    }

    private static final Map<SeriesKey, String> OLD_TO_NEW = Map.of(
            // a stream in one JVM, from its JSON or a JUnit run: no test path
            key("tcp4", "tcp4_mbps", "local", null), "tcp4_mbps@local",
            // linerate's iperf3 client, forward: its own rate (local) and the server's count (remote)
            key("tcp4", "tcp4_sent_mbps", "local", "forward"), "iperf3_tcp4_mbps@local",
            key("tcp4", "tcp4_mbps", "remote", "forward"), "iperf3_tcp4_mbps@remote",
            // the gate's former iperf3 reader: no family, host local for the server's count in a client's file
            key("udp4", "udp4_mbps", "remote", "forward"), "iperf3_udp_mbps{direction=forward}@local",
            // the agent's --bidir test of old, where this host received
            key("tcp6", "tcp6_mbps", "local", "reverse"), "tcp6_bidir/tcp6_mbps{direction=reverse}@local");

    @Test
    void aFormatTwoBaselineGatesTodaysKeysAndSaysWhatItRenamedOnce() {
        String base = "{\"format\":\"linerate-baseline\",\"version\":2,\"created\":\"2026-01-05T10:00:00Z\","
                + "\"environment\":{\"kernel\":\"k\",\"cpu\":\"c\",\"jvm\":\"j\",\"transport\":\"nio\",\"linerate\":\"0.1.0\"},"
                + "\"series\":["
                + series("", "tcp4_mbps", "local", "{}", 100) + ","
                + series("", "iperf3_tcp4_mbps", "local", "{}", 100) + ","
                + series("", "iperf3_tcp4_mbps", "remote", "{}", 100) + ","
                + series("", "iperf3_udp_mbps", "local", "{\"direction\":\"forward\"}", 100) + ","
                + series("tcp6_bidir", "tcp6_mbps", "local", "{\"direction\":\"reverse\"}", 100) + "]}";
        Baseline b = Baseline.parse("old.json", base);
        MetricSet now = new MetricSet();
        for (SeriesKey k : OLD_TO_NEW.keySet()) {
            now.add(new Observation(k, "new.log", 100, "Mbit/s", 1, "new.log", 0));
        }
        GateReport r = Gate.create().baseline(b).run(now);

        // every series compared under today's key, none missing
        assertThat(r.verdicts()).hasSize(OLD_TO_NEW.size()).allSatisfy(v -> {
            assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
            assertThat(v.baseline()).isEqualTo(100.0);
        });
        assertThat(r.exitCode()).isZero();
        assertThat(r.warnings()).filteredOn(w -> w.where().equals("baseline")).singleElement().satisfies(w -> {
            assertThat(w.message()).startsWith("the baseline is of format version 2, saved before one quantity had one key;"
                    + " 5 series read under today's keys: ").endsWith(". Save it again to store today's keys");
            OLD_TO_NEW.forEach((now1, old) -> assertThat(w.message()).contains(old + " -> " + now1.display()));
        });
    }

    @Test
    void anOldKeyWithTwoCandidatesInTheRunNeitherTheLikeliestKeepsItsNameAndIsMissing() {
        // the former reader's name had no family, and this run has both families' goodput at the server (the
        // likeliest, the client's file of udp4, is not among them)
        String base = "{\"format\":\"linerate-baseline\",\"version\":2,\"created\":\"2026-01-05T10:00:00Z\","
                + "\"environment\":{\"kernel\":\"k\",\"cpu\":\"c\",\"jvm\":\"j\",\"transport\":\"nio\",\"linerate\":\"0.1.0\"},"
                + "\"series\":[" + series("", "iperf3_udp_mbps", "local", "{\"direction\":\"forward\"}", 100) + "]}";
        MetricSet now = new MetricSet();
        now.add(new Observation(key("udp4", "udp4_mbps", "local", "forward"), "n", 100, "Mbit/s", 1, "n", 0));
        now.add(new Observation(key("udp6", "udp6_mbps", "remote", "forward"), "n", 100, "Mbit/s", 1, "n", 0));
        GateReport r = Gate.create().baseline(Baseline.parse("old.json", base)).run(now);
        assertThat(r.verdicts()).filteredOn(v -> v.kind() == Verdict.Kind.MISSING).singleElement()
                .satisfies(v -> assertThat(v.key().display()).isEqualTo("iperf3_udp_mbps{direction=forward}@local"));
        assertThat(r.exitCode()).isEqualTo(1);
    }

    @Test
    void aBaselineOfTodaysFormatIsReadAsItIs() {
        Baseline today = Baseline.of(MetricReaders.read("b.log", GateTest.metrics("tcp4_mbps", "Mbit/s", 100)),
                GateTest.ENV, GateTest.CREATED);
        assertThat(today.version()).isEqualTo(LegacyKeys.KEYS_VERSION);
        assertThat(LegacyKeys.remap(today, java.util.Set.of(), new java.util.ArrayList<>())).isSameAs(today);
    }

    private static String v2(String... series) {
        return "{\"format\":\"linerate-baseline\",\"version\":2,\"created\":\"2026-01-05T10:00:00Z\","
                + "\"environment\":{\"kernel\":\"k\",\"cpu\":\"c\",\"jvm\":\"j\",\"transport\":\"nio\",\"linerate\":\"0.1.0\"},"
                + "\"series\":[" + String.join(",", series) + "]}";
    }

    @Test
    void anOldGoodputIsNeverReadAsASendersRate() {
        // an in-JVM udp4_mbps@local (goodput) against an agent run, whose local figure is the sender's rate
        MetricSet now = new MetricSet();
        now.add(new Observation(key("udp4", "udp4_sent_mbps", "local", "forward"), "n", 100, "Mbit/s", 1, "n", 0));
        now.add(new Observation(key("udp4", "udp4_mbps", "remote", "forward"), "n", 60, "Mbit/s", 1, "n", 0));
        GateReport r = Gate.create().baseline(Baseline.parse("old.json", v2(series("", "udp4_mbps", "local", "{}", 100))))
                .run(now);
        assertThat(r.verdicts()).filteredOn(v -> v.kind() == Verdict.Kind.MISSING).singleElement()
                .satisfies(v -> assertThat(v.key().display()).isEqualTo("udp4_mbps@local"));
        assertThat(r.exitCode()).isEqualTo(1);
    }

    @Test
    void anOldKeyIsNeverRenamedOntoASeriesTheBaselineHolds() {
        // today's key and an old one that would become it: the old one keeps its name, nothing is overwritten
        MetricSet now = new MetricSet();
        now.add(new Observation(key("tcp4", "tcp4_mbps", "local", null), "n", 100, "Mbit/s", 1, "n", 0));
        GateReport r = Gate.create().baseline(Baseline.parse("old.json", v2(series("tcp4", "tcp4_mbps", "local", "{}", 100),
                series("", "tcp4_mbps", "local", "{}", 1)))).run(now);
        assertThat(r.verdicts()).filteredOn(v -> v.key().display().equals("tcp4/tcp4_mbps@local")).singleElement()
                .satisfies(v -> assertThat(v.baseline()).isEqualTo(100.0));
    }

    @Test
    void aSeriesGivenTwiceInABaselineIsAnError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Baseline.parse("twice.json",
                        v2(series("tcp4", "tcp4_mbps", "local", "{}", 100), series("tcp4", "tcp4_mbps", "local", "{}", 1))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline twice.json, series #2: series tcp4/tcp4_mbps@local is there twice; allowed: each"
                        + " series once (its runs hold all its samples)");
    }
}
