package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.ResultJson;
import io.linerate.regression.Baseline;
import io.linerate.regression.Environment;
import io.linerate.regression.Gate;
import io.linerate.regression.GateReport;
import io.linerate.regression.MetricReaders;
import io.linerate.regression.MetricSet;
import io.linerate.regression.Observation;
import io.linerate.regression.Verdict;
import io.linerate.testsupport.Iperf3Server;
import io.linerate.testsupport.PeerTool;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * One quantity, one key (docs/metrics.md): the result of linerate's iperf3 client, as {@code stream
 * --peer-protocol iperf3 --json} writes it, and the real {@code iperf3 -c -J} of the same test
 * against the same real {@code iperf3 -s} give the gate the same series, so a baseline saved from
 * one gates the other with every series compared. The point is the keys, not the speed: the
 * tolerance is 100 %.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class Iperf3OneKeyTest {
    private static final Environment ENV = new Environment("k", "c", "j", "nio", "test");

    @BeforeAll
    static void iperf3() {
        PeerTool.require("iperf3", "iperf3");
    }

    private static MetricSet linerate(Iperf3Server srv, Protocol p, boolean reverse, int streams) throws Exception {
        TransferSpec spec = TransferSpec.builder().protocol(p).payloadBytes(p == Protocol.UDP ? 1400 : 128 * 1024)
                .rateBitsPerSecond(p == Protocol.UDP ? 20_000_000 : 0).duration(Duration.ofSeconds(1))
                .ioTimeout(Duration.ofSeconds(10)).trafficClass(0).build();
        Iperf3Result r = Iperf3Client.run("127.0.0.1", srv.port, spec,
                Iperf3Options.defaults().withReverse(reverse).withParallel(streams));
        return MetricReaders.read("linerate.json", ResultJson.of(r).toJson());
    }

    private static MetricSet real(Iperf3Server srv, Protocol p, boolean reverse, int streams) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Iperf3Server.binary(), "-c", "127.0.0.1", "-p", Integer.toString(srv.port),
                "-t", "1", "-J", "-P", Integer.toString(streams)));
        if (p == Protocol.UDP) {
            cmd.addAll(List.of("-u", "-b", "20M", "-l", "1400"));
        }
        if (reverse) {
            cmd.add("-R");
        }
        Process c = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (var in = c.getInputStream()) {
            in.transferTo(out);
        } finally {
            if (!c.waitFor(30, TimeUnit.SECONDS)) {
                c.destroyForcibly();
            }
        }
        return MetricReaders.read("iperf3.json", out.toString(StandardCharsets.UTF_8));
    }

    private static Set<String> keys(MetricSet s) {
        assertThat(s.errors()).isEmpty();
        Set<String> k = new TreeSet<>();
        for (Observation o : s.observations()) {
            k.add(o.key().display());
        }
        return k;
    }

    private static void gatesEverySeries(MetricSet base, MetricSet current) {
        Baseline b = Baseline.of(base, ENV, Instant.parse("2026-01-05T10:00:00Z"));
        GateReport r = Gate.create().baseline(b).tolerance(1.0).run(current);
        assertThat(r.verdicts()).as("%s", r.verdicts()).hasSize(b.series().size())
                .allSatisfy(v -> assertThat(v.baseline()).isNotNull())
                .noneSatisfy(v -> assertThat(v.kind()).isIn(Verdict.Kind.MISSING, Verdict.Kind.ERROR));
    }

    @ParameterizedTest(name = "{0} reverse={1} -P {2}")
    @CsvSource({"TCP, false, 1", "TCP, true, 1", "UDP, false, 1", "UDP, true, 1", "TCP, false, 2"})
    void linerateAndIperf3GiveTheSameKeysAndGateEachOther(Protocol p, boolean reverse, int streams) throws Exception {
        try (Iperf3Server srv = Iperf3Server.start(false)) {
            MetricSet ours = linerate(srv, p, reverse, streams);
            MetricSet theirs = real(srv, p, reverse, streams);
            String m = p == Protocol.UDP ? "udp4" : "tcp4";
            String dir = reverse ? "reverse" : "forward";
            String receiver = reverse ? "local" : "remote";
            // the receiver's goodput at the receiver's host, derived from who sends, not from the code
            String sum = streams > 1 ? ",stream=sum,streams=" + streams : "";
            assertThat(keys(ours)).contains(m + "/" + m + "_mbps{direction=" + dir + sum + "}@" + receiver);
            assertThat(keys(ours)).isEqualTo(keys(theirs));
            gatesEverySeries(ours, theirs);
            gatesEverySeries(theirs, ours);
        }
    }
}
