package io.linerate.peers.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.AddressFamily;
import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.DataPath;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PeerDirection;
import io.linerate.core.PeerSecret;
import io.linerate.core.Protocol;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.spi.Transport;
import io.linerate.peers.agent.client.AgentStreamTest;
import io.linerate.peers.agent.client.RemoteStreamResult;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A GSO stream through a native agent interrupted (as SIGINT does in the CLI) on this end's first
 * interval of a 30 s stream: the result so far still names both ends' calls, as a whole run's does.
 */
@Timeout(60)
class NativeAgentInterruptTest {
    private static final String NATIVE = "native";
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        Transport t = Transports.byName(NATIVE);
        assumeTrue(t.unavailabilityCause().isEmpty(), () -> "the native transport cannot load here: "
                + t.unavailabilityCause().orElseThrow());
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                AgentLimits.defaults(), Duration.ofSeconds(5)).withTransport(NATIVE));
    }

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
    }

    @ParameterizedTest
    @EnumSource(value = PeerDirection.class, names = {"FORWARD", "REVERSE"})
    void anInterruptedGsoStreamStillNamesBothEndsCalls(PeerDirection d) throws Exception {
        AgentPeer peer = AgentPeer.builder(Endpoint.remote("127.0.0.1", agent.address().getPort()))
                .secret(PeerSecret.of(AgentStreamTest.SECRET)).direction(d).build();
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4).payloadBytes(1200)
                .rateBitsPerSecond(10_000_000).io(new StreamIo(0, true, false, false)).duration(Duration.ofSeconds(30))
                .warmup(Duration.ZERO).interval(Duration.ofMillis(100)).ioTimeout(Duration.ofSeconds(5))
                .endpoint(peer).build();
        Thread runner = Thread.currentThread();
        AtomicBoolean sent = new AtomicBoolean();
        IntervalListener interruptOnFirst = s -> {
            if (sent.compareAndSet(false, true)) {
                runner.interrupt();
            }
        };
        TransferResult t;
        try (Measurement m = Transports.byName(NATIVE).open((MeasurementSpec) spec, Clock.system())) {
            t = ((RemoteStreamResult) m.run(interruptOnFirst)).transfer();
        }
        assertThat(Thread.interrupted()).as("the run took the interrupt").isFalse();

        assertThat(t.interrupted()).isTrue();
        DataPath p = t.dataPath().orElseThrow();
        assertThat(p.sender().call()).isEqualTo("sendmmsg(2) with UDP_SEGMENT (1200-byte segments)");
        assertThat(p.receiver().call()).startsWith("recvmmsg(2) with UDP_GRO");
        // every datagram the sender counted left in one of its calls' segments
        assertThat(p.sender().segments()).isPositive().isEqualTo(t.messagesSent());
        assertThat(p.receiver().segments()).isEqualTo(t.bytesReceived() / 1200);
    }
}
