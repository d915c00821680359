package io.linerate.peers.iperf2;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.ResultJson;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.AllowFrom;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The thread running a 30 s test against an iperf 2 server (linerate's own) is interrupted, as
 * SIGINT does in the CLI, on linerate's first interval: sending stops, the test ends as at its
 * bound (UDP: the final datagram and the server's report), and the result is marked interrupted.
 */
@Timeout(120)
class Iperf2ClientInterruptTest {
    private static final Duration LONG = Duration.ofSeconds(30);

    private static TransferSpec spec(Protocol p) {
        return TransferSpec.builder().protocol(p).payloadBytes(p == Protocol.TCP ? 128 * 1024 : 1200).duration(LONG)
                .rateBitsPerSecond(p == Protocol.UDP ? 20_000_000 : 0).interval(Duration.ofMillis(100))
                .ioTimeout(Duration.ofSeconds(3)).trafficClass(0).build();
    }

    private static Iperf2Result runInterrupted(Protocol p) throws Exception {
        Thread runner = Thread.currentThread();
        AtomicBoolean sent = new AtomicBoolean();
        IntervalListener interruptOnFirst = s -> {
            if (sent.compareAndSet(false, true)) {
                runner.interrupt();
            }
        };
        try (Iperf2Agent server = Iperf2Agent.start(new Iperf2ServerConfig(InetAddress.getLoopbackAddress(), 0,
                AllowFrom.anyone(), AgentLimits.defaults(), Duration.ofSeconds(3)))) {
            Iperf2Result r = Iperf2Client.run("127.0.0.1", server.address().getPort(), spec(p), Iperf2HeaderVariant.SEQ64,
                    interruptOnFirst);
            assertThat(Thread.interrupted()).as("the run took the interrupt").isFalse();
            assertThat(r.interrupted()).isTrue();
            assertThat(r.local().bytes()).isPositive();
            assertThat(r.local().nanos()).isLessThan(LONG.toNanos());
            assertThat(r.notes()).anyMatch(n -> n.startsWith("interrupted"));
            assertThat(ResultJson.of(r).toJson()).contains("\"interrupted\":true");
            return r;
        }
    }

    @Test
    void udpGetsTheServersReportOfWhatWasSentUntilTheInterrupt() throws Exception {
        Iperf2Result r = runInterrupted(Protocol.UDP);

        assertThat(r.remote()).as("the final datagram's report came").isPresent();
        // the server got no more datagrams than linerate sent, the final one included
        assertThat(r.remote().get().datagrams()).isPositive().isLessThanOrEqualTo(r.local().datagrams());
    }

    @Test
    void tcpStopsSendingAndKeepsLineratesCounts() throws Exception {
        Iperf2Result r = runInterrupted(Protocol.TCP);

        assertThat(r.remote()).isEmpty();
        assertThat(r.local().datagrams()).as("writes").isPositive();
    }
}
