package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.core.latency.LatencyHistograms;
import io.linerate.core.latency.LatencyMode;
import io.linerate.core.latency.LatencyReport;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.latency.SizeLatency;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The agent's echo counts beside this host's round trips, of a whole sweep and of an interrupted one. */
class RemotePingPongResultTest {
    private static final RunFacts FACTS = new RunFacts("1.2.3", "2026-01-02T03:04:05Z", "Linux 6.1.0 amd64",
            "Example CPU @ 2.00GHz", "OpenJDK 64-Bit Server VM 17.0.15+6 (Example)", "");
    private static final int SIZE = 64;
    private static final long TRIPS = 10;

    /** A sweep of one 64-byte size: 10 round trips, so 640 bytes carried. */
    private static PingPongResult sweep(PingPongProtocol protocol, boolean interrupted) {
        PingPongSpec spec = PingPongSpec.builder().protocol(protocol).family(AddressFamily.IPV4).sizes(List.of(SIZE))
                .mode(LatencyMode.HALF_RTT).build();
        ExactRangeHistogram h = LatencyHistograms.create();
        for (int i = 0; i < TRIPS; i++) {
            h.record(2000);
        }
        LatencyReport report = new LatencyReport(FACTS, LatencyMode.HALF_RTT, 99, List.of(new SizeLatency(SIZE, h, 1_000_000, 1.0)));
        return new PingPongResult(spec, report, new AppliedOptions(0, 0, 0, 0, 0, 0, true, true),
                List.of(new PingPongResult.SizeCounts(SIZE, TRIPS, TRIPS, -1, -1, 0)), 0, Optional.empty(), interrupted);
    }

    @Test
    void aWholeSweepMustMatchTheAgentsEchoesExactly() {
        PingPongResult local = sweep(PingPongProtocol.TCP, false);
        assertThat(new RemotePingPongResult(local, TRIPS, TRIPS * SIZE).invalidReasons()).isEmpty();
        assertThat(new RemotePingPongResult(local, TRIPS + 1, (TRIPS + 1) * SIZE).invalidReasons())
                .containsExactly("the agent echoed 704 bytes but this host's round trips carried 640");
    }

    @Test
    void anInterruptedSweepMayLeaveTheAgentOneMessageAhead() {
        PingPongResult local = sweep(PingPongProtocol.TCP, true);
        RemotePingPongResult r = new RemotePingPongResult(local, TRIPS + 1, (TRIPS + 1) * SIZE);
        assertThat(r.interrupted()).isTrue();
        assertThat(r.invalidReasons()).isEmpty();
        // part of the message in flight, echoed before the interrupt closed the socket
        assertThat(new RemotePingPongResult(local, TRIPS + 1, TRIPS * SIZE + 10).invalidReasons()).isEmpty();
        // more than one message ahead, or behind, is still a mismatch
        assertThat(new RemotePingPongResult(local, TRIPS + 2, (TRIPS + 1) * SIZE + 1).invalidReasons())
                .containsExactly("the agent echoed 705 bytes but this host's round trips carried 640");
        assertThat(new RemotePingPongResult(local, TRIPS, TRIPS * SIZE - 1).invalidReasons()).hasSize(1);
    }

    @Test
    void anInterruptedUdpSweepMayLeaveTheAgentOneDatagramAhead() {
        PingPongResult local = sweep(PingPongProtocol.UDP, true);
        assertThat(new RemotePingPongResult(local, TRIPS + 1, (TRIPS + 1) * SIZE).invalidReasons()).isEmpty();
        assertThat(new RemotePingPongResult(local, TRIPS + 2, (TRIPS + 1) * SIZE).invalidReasons())
                .containsExactly("the agent echoed 12 datagrams but this host completed 10 round trips");
    }
}
