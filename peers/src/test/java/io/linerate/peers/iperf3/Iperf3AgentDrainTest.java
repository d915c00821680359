package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.AllowFrom;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * linerate's iperf3 client with a TCP drain against linerate's own iperf3 server: the client's
 * data connections end (FIN) well before its TEST_END, which a server must take as the end of
 * what that stream sends, not as a failed test.
 */
@Timeout(60)
class Iperf3AgentDrainTest {
    private static final Duration DRAIN = Duration.ofMillis(300);

    private static Iperf3Agent server() throws java.io.IOException {
        return Iperf3Agent.start(new Iperf3ServerConfig(InetAddress.getLoopbackAddress(), 0, AllowFrom.anyone(),
                AgentLimits.defaults(), Duration.ofSeconds(5)));
    }

    private static TransferSpec spec() {
        return TransferSpec.builder().protocol(Protocol.TCP).payloadBytes(128 * 1024).duration(Duration.ofMillis(300))
                .build();
    }

    @Test
    void aStreamClosedBeforeTestEndIsCountedWhole() throws Exception {
        try (Iperf3Agent srv = server()) {
            Iperf3Result r = Iperf3Client.run("127.0.0.1", srv.address().getPort(), spec(),
                    Iperf3Options.defaults().withParallel(2).withTcpDrain(DRAIN));
            // the server read each stream to the client's FIN: it counts every byte sent
            assertThat(r.local().bytes()).isPositive().isEqualTo(r.remoteBytes());
            assertThat(r.serverReadAll()).contains(true);
        }
    }

    @Test
    void bidirWithADrainCountsBothWays() throws Exception {
        try (Iperf3Agent srv = server()) {
            Iperf3BidirResult r = Iperf3Client.runBidir("127.0.0.1", srv.address().getPort(), spec(),
                    Iperf3Options.defaults().withTcpDrain(DRAIN));
            assertThat(r.forward().local().bytes()).isPositive().isEqualTo(r.forward().remoteBytes());
            assertThat(r.reverse().local().bytes()).isPositive().isEqualTo(r.reverse().remoteBytes());
        }
    }
}
