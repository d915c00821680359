package io.linerate.peers.agent.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.DatagramHeader;
import io.linerate.core.Endpoint;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.ControlBeats;
import io.linerate.peers.agent.internal.wire.SpecJson;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * In reverse the agent sends nothing before the client's {@code go}: a client whose receiver is not
 * yet reading would only have the agent's first datagrams overflow its socket buffer (that lost a
 * fifth to a half of the first interval at 100 Mbit/s). A stand-in client asks for go and beats,
 * hears the agent beat twice (so the agent has been waiting for a beat interval at least), finds its
 * socket empty, says go, and then receives the stream from its first datagram on.
 *
 * <p>Forward, the other way round: the agent says {@code go} once its receiver reads, and a client
 * sends only then (an agent that had not run a stream yet, on a loaded host, lost most of a first
 * second to a socket buffer nobody read yet).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AgentGoTest {
    @Test
    void theAgentSendsOnlyAfterTheClientsGo() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (Agent agent = Agent.start(new AgentConfig(lo, 0, Optional.empty(), AgentLimits.defaults(), Duration.ofSeconds(5)));
             DatagramChannel udp = DatagramChannel.open()) {
            udp.bind(new InetSocketAddress(lo, 0));
            TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4).payloadBytes(1000)
                    .rateBitsPerSecond(10_000_000).duration(Duration.ofSeconds(2)).warmup(Duration.ZERO)
                    .ioTimeout(Duration.ofMillis(400)).endpoint(Endpoint.remote("127.0.0.1", agent.address().getPort())).build();
            try (Control c = new Control(new Socket(lo, agent.address().getPort()), 10_000)) {
                assertThat(c.receive().get("type").asText()).isEqualTo("hello");
                var req = Control.message("stream").put("direction", "reverse").put("streams", 1)
                        .put("udp_port", udp.socket().getLocalPort()).put(ControlBeats.FIELD, 100)
                        .put(Control.GO, true);
                req.set("spec", SpecJson.node(spec));
                c.send(req);
                JsonNode ready = c.expect("ready");
                assertThat(ready.path(Control.GO).asBoolean()).isTrue();
                udp.connect(new InetSocketAddress(lo, ready.get("port").asInt()));
                udp.configureBlocking(false);
                for (int beats = 0; beats < 2; ) {
                    beats += c.receive().get("type").asText().equals(ControlBeats.TYPE) ? 1 : 0;
                }
                ByteBuffer b = ByteBuffer.allocate(2048);
                assertThat(udp.read(b)).as("datagrams before go").isZero();

                c.send(Control.message(Control.GO));
                b.clear();
                try (Selector sel = Selector.open()) {
                    udp.register(sel, SelectionKey.OP_READ);
                    assertThat(sel.select(10_000)).as("a datagram within 10 s of go").isPositive();
                }
                udp.read(b);
                assertThat(DatagramHeader.sequence(b.flip())).as("the first datagram read").isZero();
            }
        }
    }

    @Test
    void forwardTheAgentSaysGoOnceItsReceiverReads() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        int streamId = 0x60_0d; // names the agent's receiving thread: linerate-end-rx-<id>
        try (Agent agent = Agent.start(new AgentConfig(lo, 0, Optional.empty(), AgentLimits.defaults(), Duration.ofSeconds(30)));
             DatagramChannel udp = DatagramChannel.open()) {
            udp.bind(new InetSocketAddress(lo, 0));
            TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4).payloadBytes(1000)
                    .rateBitsPerSecond(10_000_000).duration(Duration.ofSeconds(1)).warmup(Duration.ZERO).streamId(streamId)
                    .ioTimeout(Duration.ofSeconds(20)).endpoint(Endpoint.remote("127.0.0.1", agent.address().getPort())).build();
            try (Control c = new Control(new Socket(lo, agent.address().getPort()), 30_000)) {
                assertThat(c.receive().get("type").asText()).isEqualTo("hello");
                var req = Control.message("stream").put("direction", "forward").put("streams", 1)
                        .put("udp_port", udp.socket().getLocalPort()).put("start", "message")
                        .put(Control.GO, true);
                req.set("spec", SpecJson.node(spec));
                c.send(req);
                assertThat(c.expect("ready").path(Control.GO).asBoolean()).as("go confirmed").isTrue();
                assertThat(receiverThreadAlive(streamId)).as("the agent's receiver before start").isFalse();

                c.send(Control.message("start"));
                assertThat(c.receive().get("type").asText()).isEqualTo(Control.GO);
                assertThat(receiverThreadAlive(streamId)).as("the agent's receiver when it says go").isTrue();
            }
        }
    }

    private static boolean receiverThreadAlive(int streamId) {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals("linerate-end-rx-" + streamId) && t.isAlive());
    }
}
