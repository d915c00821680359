package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.Protocol;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferSpec;
import io.linerate.regression.internal.Json;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * iperf3 {@code -J} files made with iperf3 3.12 on 127.0.0.1 (see {@code inputs/iperf3/README.md}).
 * Every expected value is copied from the named field of the file, divided by 10^6 for Mbit/s.
 */
class Iperf3ReaderTest {
    private static final double EPS = 1e-9;

    static MetricSet iperf3(String file) {
        return TestFiles.read("iperf3/" + file);
    }

    static List<Observation> named(MetricSet s, String name) {
        return s.observations().stream().filter(o -> o.key().name().equals(name)).toList();
    }

    @Test
    void udpClientSendingGivesTheReceiversSummaryNotTheSendersIntervals() {
        // udp-forward.json: the client sent (intervals "sender": true, 50.06 and 50.07 Mbit/s of the sender);
        // end.sum_received is the server's: bits_per_second 50064948.089723833, jitter_ms 0.0255532483813569,
        // lost_percent 0, end 2.000182, counted by the server and reported back (remote); end.sum_sent is the
        // client's own (local): bits_per_second 50066474.97826382, end 2.000121
        MetricSet s = iperf3("udp-forward.json");
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).extracting(o -> o.key().display(), Observation::unit, Observation::timeSeconds)
                .containsExactly(
                        tuple("udp4/udp4_sent_mbps{direction=forward}@local", "Mbit/s", 2.000121),
                        tuple("udp4/udp4_mbps{direction=forward}@remote", "Mbit/s", 2.000182),
                        tuple("udp4/udp4_lost_pct{direction=forward}@remote", "%", 2.000182),
                        tuple("udp4/udp4_jitter_ms{direction=forward}@remote", "ms", 2.000182));
        assertThat(s.observations().get(0).value()).isCloseTo(50.06647497826382, within(EPS));
        assertThat(s.observations().get(1).value()).isCloseTo(50.064948089723833, within(EPS));
        assertThat(s.observations().get(2).value()).isEqualTo(0.0);
        assertThat(s.observations().get(3).value()).isEqualTo(0.0255532483813569);
    }

    @Test
    void aGsroTestIsItsOwnSeriesUnderTheMarkerLineratesGsoStreamWrites() {
        // udp-gsro-forward.json: iperf3 3.21 -u -b 0 -l 1400 --gsro, test_start "gso": 1, "gro": 1; end.sum_sent
        // 19711712380.946674 bit/s at 2.003094 (local); end.sum_received 7158223464.038488 bit/s, lost_percent
        // 63.67693110647182, jitter_ms 0.00010186471433311843, at 2.003517 (the server's, remote)
        MetricSet s = iperf3("udp-gsro-forward.json");
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).extracting(o -> o.key().display()).containsExactly(
                "udp4_gso/udp4_gso_sent_mbps{direction=forward}@local", "udp4_gso/udp4_gso_mbps{direction=forward}@remote",
                "udp4_gso/udp4_gso_lost_pct{direction=forward}@remote",
                "udp4_gso/udp4_gso_jitter_ms{direction=forward}@remote");
        assertThat(s.observations().get(0).value()).isCloseTo(19711.712380946674, within(EPS));
        assertThat(s.observations().get(1).value()).isCloseTo(7158.223464038488, within(EPS));
        assertThat(s.observations().get(2).value()).isEqualTo(63.67693110647182);
        assertThat(s.observations().get(3).value()).isEqualTo(0.00010186471433311843);
        // the same stream of linerate's own has that marker
        TransferSpec gso = TransferSpec.builder().protocol(Protocol.UDP).io(new StreamIo(0, true, false, false)).build();
        assertThat(gso.testName()).isEqualTo("udp4_gso");
    }

    @Test
    void udpReverseGivesTheClientsReceivedIntervalsWithoutTheOmittedOne() {
        // udp-reverse.json (-R -O 1): every interval sum has "sender": false; the first (50062545.404731043 bit/s)
        // is "omitted": true; the others: 50065547.031492 bit/s, jitter 0.0092576795054133566 ms, end 1.000055;
        // 50074360.049048886 bit/s, jitter 0.0051910777882087462 ms, end 1.999958; lost_percent 0 in both
        MetricSet s = iperf3("udp-reverse.json");
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).allSatisfy(o -> assertThat(o.key().labels()).containsEntry("direction", "reverse"));
        assertThat(named(s, "udp4_mbps")).extracting(Observation::value, Observation::timeSeconds).containsExactly(
                tuple(50.065547031492, 1.000055), tuple(50.074360049048886, 1.999958));
        assertThat(named(s, "udp4_mbps")).allSatisfy(o -> assertThat(o.key().host()).isEqualTo("local"));
        assertThat(named(s, "udp4_jitter_ms")).extracting(Observation::value)
                .containsExactly(0.0092576795054133566, 0.0051910777882087462);
        assertThat(named(s, "udp4_lost_pct")).extracting(Observation::value).containsExactly(0.0, 0.0);
        // the server's sending rate, end.sum_sent, reported back to the client: 50046607.676987775 bit/s
        assertThat(named(s, "udp4_sent_mbps")).singleElement().satisfies(o -> {
            assertThat(o.key().host()).isEqualTo("remote");
            assertThat(o.value()).isCloseTo(50.046607676987775, within(EPS));
        });
    }

    @Test
    void udpBidirGivesBothReceivers() {
        // udp-bidir.json: forward (client sends, "sender": true in intervals[].sum): end.sum_received,
        // 50066024.411303416 bit/s, jitter 0.017850354029431425 ms; reverse: intervals[].sum_bidir_reverse
        // ("sender": false), 50068304.309995852 and 50068805.66599 bit/s, jitter 0.00790488277808179 and
        // 0.010727165669998824 ms
        MetricSet s = iperf3("udp-bidir.json");
        assertThat(s.errors()).isEmpty();
        List<Observation> mbps = named(s, "udp4_mbps");
        assertThat(mbps).extracting(o -> o.key().labels().get("direction"), o -> o.key().host())
                .containsExactly(tuple("forward", "remote"), tuple("reverse", "local"), tuple("reverse", "local"));
        assertThat(mbps.get(0).value()).isCloseTo(50.066024411303416, within(EPS));
        assertThat(mbps.get(1).value()).isCloseTo(50.068304309995852, within(EPS));
        assertThat(mbps.get(2).value()).isCloseTo(50.06880566599, within(EPS));
        assertThat(named(s, "udp4_jitter_ms")).extracting(Observation::value)
                .containsExactly(0.017850354029431425, 0.00790488277808179, 0.010727165669998824);
    }

    @Test
    void tcpClientSendingGivesTheSendersRateAndTheReceiversGoodputEachWithItsHost() {
        // tcp-forward.json: end.sum_sent.bits_per_second 50329131.543422825 (the client's own),
        // end.sum_received.bits_per_second 50312328.066022649 (the server's, reported back)
        MetricSet s = iperf3("tcp-forward.json");
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).extracting(o -> o.key().display(), Observation::value).containsExactly(
                tuple("tcp4/tcp4_sent_mbps{direction=forward}@local", 50.329131543422825),
                tuple("tcp4/tcp4_mbps{direction=forward}@remote", 50.312328066022649));
    }

    @Test
    void aFileHoldingOnlySenderSideFiguresGivesTheSendersRateAndWarnsThatGoodputIsUnknown() {
        // udp-reverse-server.json: the server's own -J output of a -R run; it sent (end.sum_sent 50059467.0768511
        // bit/s, end 2.000401), and its end.sum_received is 0s
        MetricSet s = iperf3("udp-reverse-server.json");
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).singleElement().satisfies(o -> {
            assertThat(o.key().display()).isEqualTo("udp4/udp4_sent_mbps{direction=reverse}@local");
            assertThat(o.value()).isCloseTo(50.0594670768511, within(EPS));
        });
        assertThat(s.warnings()).singleElement().satisfies(p -> assertThat(p.message()).isEqualTo(
                "iperf3 reverse (server to client): the input holds only the sender's figures (2 intervals flagged sender"
                        + " and no receiver's end.sum_received, which iperf3 fills only in the client's output), so only"
                        + " udp4_sent_mbps is read and the receiver's goodput, loss and jitter are unknown; gate the client's"
                        + " -J output of a complete run for them"));
    }

    @Test
    void aServersBidirFileErrsOnTheDirectionItSentAloneAndKeepsTheOneItReceived() {
        // udp-bidir-server.json: the server's -J output of a --bidir run. It received the forward
        // direction (its intervals are receiver-side) and only sent the reverse one, so the reverse
        // direction's error belongs to that series alone and the forward series keeps its samples.
        MetricSet s = iperf3("udp-bidir-server.json");
        SeriesKey forward = new SeriesKey("udp4", "udp4_mbps", "local", new java.util.TreeMap<>(Map.of("direction", "forward")));
        SeriesKey reverse = new SeriesKey("udp4", "udp4_mbps", "local", new java.util.TreeMap<>(Map.of("direction", "reverse")));
        SeriesKey reverseSent = new SeriesKey("udp4", "udp4_sent_mbps", "local",
                new java.util.TreeMap<>(Map.of("direction", "reverse")));
        assertThat(s.observations()).extracting(Observation::key).contains(forward, reverseSent).doesNotContain(reverse);
        assertThat(s.errors()).isEmpty();
        assertThat(s.warnings()).singleElement().satisfies(p -> assertThat(p.message()).startsWith("iperf3 reverse"));

        GateReport r = Gate.create().run(s);
        assertThat(r.verdicts()).filteredOn(v -> v.key().equals(forward)).singleElement()
                .satisfies(v -> assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS));
    }

    @Test
    void halfTheDatagramsLostAt2000MbitsOfferedRegressesAgainstACleanBaseline() {
        // Both files are udp-forward.json with the figures edited (see inputs/iperf3/README.md): 2000 Mbit/s
        // offered, 15260 datagrams of 32768 B sent (the sender's intervals say 1999.8 and 2000.3 Mbit/s in both).
        // clean: all received, 500,039,680 B * 8 / 2.000182 s = 1999.976722 Mbit/s, loss 0 %;
        // half lost: 7630 received, 250,019,840 B * 8 / 2.000182 s = 999.988361 Mbit/s, loss 50 %.
        Baseline clean = Baseline.of(iperf3("udp-2000m-clean.json"), GateTest.ENV, GateTest.CREATED);
        GateReport r = Gate.create().baseline(clean).environment(GateTest.ENV).run(iperf3("udp-2000m-half-lost.json"));
        assertThat(r.verdicts()).extracting(v -> v.key().name(), Verdict::kind).containsExactly(
                tuple("udp4_sent_mbps", Verdict.Kind.PASS),
                tuple("udp4_mbps", Verdict.Kind.REGRESSION),
                tuple("udp4_lost_pct", Verdict.Kind.REGRESSION),
                tuple("udp4_jitter_ms", Verdict.Kind.PASS));
        Verdict mbps = r.verdicts().get(1);
        assertThat(mbps.baseline()).isCloseTo(1999.976722118287, within(1e-6));
        assertThat(mbps.current()).isCloseTo(999.988361059144, within(1e-6));
        // exactly half the bytes in the same 2.000182 s: (999.988 - 1999.977) / 1999.977 = -0.5
        assertThat(mbps.change()).isCloseTo(-0.5, within(1e-12));
        // loss 0 % -> 50 %: 50 percentage points beyond the 1 point tolerance; no relative change of a 0 baseline
        Verdict loss = r.verdicts().get(2);
        assertThat(loss.baseline()).isEqualTo(0.0);
        assertThat(loss.current()).isEqualTo(50.0);
        assertThat(loss.change()).isNull();
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(Reports.ktap(r))
                .contains("not ok 2 udp4/udp4_mbps{direction=forward}@remote # regressed -50.0% (base 2000, cur 1000 Mbit/s, tol 5%)\n")
                .contains("not ok 3 udp4/udp4_lost_pct{direction=forward}@remote # regressed +50 pp (base 0, cur 50 %, tol 0%, abs 1 %)\n")
                .contains("ok 4 udp4/udp4_jitter_ms{direction=forward}@remote\n");
    }

    @Test
    void tripledJitterInAReverseFileIsAnAdvisoryRegressionThatDoesNotFail() throws Exception {
        // base p50 of jitter {0.0092576795054133566, 0.0051910777882087462} by nearest rank (rank ceil(0.5 * 2) = 1)
        // is 0.0051910777882087462 ms; tripled, 0.0155732333646262386 ms: +200 %
        String original = TestFiles.resource("inputs/iperf3/udp-reverse.json");
        ObjectNode tripled = (ObjectNode) Json.MAPPER.readTree(original);
        for (JsonNode interval : tripled.path("intervals")) {
            ObjectNode sum = (ObjectNode) interval.get("sum");
            sum.put("jitter_ms", sum.get("jitter_ms").asDouble() * 3);
        }
        Baseline base = Baseline.of(MetricReaders.read("base.json", original), GateTest.ENV, GateTest.CREATED);
        GateReport r = Gate.create().baseline(base).environment(GateTest.ENV)
                .run(MetricReaders.read("cur.json", Json.line(tripled)));
        Verdict jitter = r.verdicts().stream().filter(v -> v.key().name().equals("udp4_jitter_ms")).findFirst().orElseThrow();
        assertThat(jitter.kind()).isEqualTo(Verdict.Kind.ADVISORY_REGRESSION);
        assertThat(jitter.failing()).isFalse();
        assertThat(jitter.baseline()).isEqualTo(0.0051910777882087462);
        assertThat(jitter.change()).isCloseTo(2.0, within(1e-12));
        assertThat(r.exitCode()).isZero();
        assertThat(Reports.ktap(r)).contains("ok 4 udp4/udp4_jitter_ms{direction=reverse}@local # XFAIL advisory: regressed"
                + " +200.0% (base 0.005191, cur 0.01557 ms, tol 5%)");
        assertThat(Reports.ktap(r)).doesNotContain("not ok").endsWith("# Totals: pass:3 fail:0 xfail:1 xpass:0 skip:0 error:0\n");
    }
}
