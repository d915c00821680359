package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.ResultJson;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.AllowFrom;
import io.linerate.testsupport.Iperf3Server;
import io.linerate.testsupport.PeerTool;
import java.net.InetAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The thread running a 30 s test against an iperf3 server is interrupted (as SIGINT does in the
 * CLI) on linerate's first interval: the test ends as iperf3's own client ends on SIGINT, with
 * CLIENT_TERMINATE, and the result holds linerate's counts until then, marked interrupted.
 */
@Timeout(120)
class Iperf3ClientInterruptTest {
    private static final Duration LONG = Duration.ofSeconds(30);

    private static TransferSpec spec(Protocol p) {
        return TransferSpec.builder().protocol(p).payloadBytes(p == Protocol.TCP ? 128 * 1024 : 1200).duration(LONG)
                .rateBitsPerSecond(p == Protocol.UDP ? 20_000_000 : 0).interval(Duration.ofMillis(100))
                .ioTimeout(Duration.ofSeconds(3)).trafficClass(0).build();
    }

    /** @return a listener that interrupts the calling thread on the first interval */
    private static IntervalListener interruptOnFirst() {
        Thread runner = Thread.currentThread();
        AtomicBoolean sent = new AtomicBoolean();
        return s -> {
            if (sent.compareAndSet(false, true)) {
                runner.interrupt();
            }
        };
    }

    private static void assertInterrupted(Iperf3Result r) {
        assertThat(Thread.interrupted()).as("the run took the interrupt").isFalse();
        assertThat(r.interrupted()).isTrue();
        assertThat(r.local().bytes()).isPositive();
        assertThat(r.local().nanos()).isLessThan(LONG.toNanos());
        assertThat(r.remote()).as("CLIENT_TERMINATE exchanges no results").isEmpty();
        assertThat(r.notes()).singleElement().asString().contains("CLIENT_TERMINATE");
        assertThat(ResultJson.of(r).toJson()).contains("\"interrupted\":true");
        // the server's counts are unknown, not 0: null in the detail, and no remote metric
        assertThat(r.detailJson().toJson()).contains("\"remote\":{\"host\":\"remote\",\"bytes\":null,\"exchanged\":false");
        assertThat(r.metrics()).noneMatch(m -> m.host().equals("remote"));
    }

    @Test
    void againstLineratesServerTheSessionEndsAndLineratesCountsStay() throws Exception {
        Iperf3Agent a = Iperf3Agent.start(new Iperf3ServerConfig(InetAddress.getByName("127.0.0.1"), 0,
                AllowFrom.anyone(), AgentLimits.defaults(), Duration.ofSeconds(3)));
        try {
            for (Protocol p : new Protocol[] {Protocol.TCP, Protocol.UDP}) {
                Iperf3Result r = Iperf3Client.run("127.0.0.1", a.address().getPort(), spec(p), Iperf3Options.defaults(),
                        interruptOnFirst());
                assertInterrupted(r);
                long deadline = System.nanoTime() + 20_000_000_000L;
                while (a.activeSessions() > 0 && System.nanoTime() < deadline) {
                    LockSupport.parkNanos(10_000_000L);
                }
                assertThat(a.activeSessions()).as("the server ended the session on CLIENT_TERMINATE").isZero();
            }
        } finally {
            a.close();
        }
    }

    @Test
    void againstIperf3TheServerSaysTheClientTerminated() throws Exception {
        PeerTool.require("iperf3", "iperf3");
        try (Iperf3Server srv = Iperf3Server.start(true)) {
            Iperf3Result r = Iperf3Client.run("127.0.0.1", srv.port, spec(Protocol.TCP), Iperf3Options.defaults(),
                    interruptOnFirst());
            assertInterrupted(r);
            srv.await("the client has terminated");
        }
    }
}
