package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PeerDirection;
import io.linerate.core.PeerSecret;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.latency.RrResult;
import io.linerate.core.sink.KtapDocument;
import io.linerate.core.sink.ResultJson;
import io.linerate.nio.NioTransport;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Ping-pong and request/response with an agent in this JVM that asks for a secret, on the one road:
 * the spec's endpoint is an {@link AgentPeer} carrying the secret, {@link Transports#select} picks
 * the transport, and the measurement it opens runs against the agent. The secret reaches the agent
 * (without it the agent refuses) and no output shows it.
 */
@Timeout(60)
class AgentLatencyThroughTransportsTest {
    /** Distinct enough that no number, name or address in an output contains it by chance. */
    private static final String SECRET_TEXT = "one-road-secret-5b9e";
    private static final byte[] SECRET = SECRET_TEXT.getBytes(StandardCharsets.US_ASCII);
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(SECRET),
                AgentLimits.defaults(), Duration.ofSeconds(5)));
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    private AgentPeer peer(Optional<PeerSecret> secret) {
        return AgentPeer.builder(Endpoint.remote("127.0.0.1", agent.address().getPort()))
                .secret(secret.orElse(null)).build();
    }

    private AgentPeer withSecret() {
        return peer(Optional.of(PeerSecret.of(SECRET)));
    }

    /** Selects a transport for the spec, held as a {@link MeasurementSpec}, opens it and runs it. */
    private static MeasurementResult run(MeasurementSpec spec) throws Exception {
        assertThat(Transports.select(null, spec).name()).isEqualTo(NioTransport.NAME);
        try (Measurement m = Transports.select(null, spec).open(spec, Clock.system())) {
            return m.run();
        }
    }

    /** @return the result's metrics as a KTAP document, as the command line writes them */
    private static String ktap(MeasurementResult r) {
        StringWriter out = new StringWriter();
        KtapDocument doc = KtapDocument.start(new PrintWriter(out), 1);
        r.metrics().forEach(doc.metrics()::accept);
        doc.ok("agent");
        doc.end();
        return out.toString();
    }

    private static void assertNoSecretIn(List<String> outputs) {
        assertThat(outputs).isNotEmpty().allSatisfy(text -> assertThat(text).isNotEmpty().doesNotContain(SECRET_TEXT));
    }

    @Test
    void tcpPingPongTheAgentEchoedEveryRoundTripThisHostCounted() throws Exception {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.TCP).sizes(List.of(32, 64))
                .policy(AgentLatencyTest.SHORT).timeout(Duration.ofSeconds(5)).endpoint(withSecret()).build();

        MeasurementResult result = run(spec);

        assertThat(result).isInstanceOf(RemotePingPongResult.class);
        RemotePingPongResult r = (RemotePingPongResult) result;
        long first = r.local().sizes().get(0).roundTrips();
        long second = r.local().sizes().get(1).roundTrips();
        // no warm-up: every round trip of the sweep is one of the two sizes'
        assertThat(r.local().roundTrips()).isPositive().isEqualTo(first + second);
        // a 32 or 64 B message is one segment, sent only after the previous answer came back, so
        // nothing is in flight when the sweep ends: one echo per round trip, each of its size's bytes
        assertThat(r.agentEchoes()).isEqualTo(first + second);
        assertThat(r.agentEchoedBytes()).isEqualTo(32L * first + 64L * second);
        assertThat(r.invalidReasons()).isEmpty();

        StringWriter table = new StringWriter();
        r.local().report().writeTable(new PrintWriter(table, true));
        assertNoSecretIn(List.of(spec.toString(), spec.endpoint().toString(), r.toString(), table.toString(),
                ResultJson.of(r).toJson(), r.detailJson().toString(), ktap(r)));
    }

    @Test
    void udpPingPongTheAgentEchoedOneDatagramPerRoundTrip() throws Exception {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UDP).sizes(List.of(48))
                .policy(AgentLatencyTest.SHORT).timeout(Duration.ofSeconds(5)).endpoint(withSecret()).build();

        RemotePingPongResult r = (RemotePingPongResult) run(spec);

        assertThat(r.local().roundTrips()).isPositive();
        assertThat(r.agentEchoes()).isEqualTo(r.local().roundTrips());
        assertThat(r.agentEchoedBytes()).isEqualTo(48L * r.local().roundTrips());
        assertNoSecretIn(List.of(spec.toString(), r.toString(), ResultJson.of(r).toJson(), ktap(r)));
    }

    @Test
    void requestResponseCompletesNoMoreTransactionsThanTheAgentServed() throws Exception {
        RrSpec spec = RrSpec.builder().flows(3).requestBytes(100).responseBytes(200).warmup(Duration.ofMillis(50))
                .duration(Duration.ofMillis(200)).timeout(Duration.ofSeconds(5)).endpoint(withSecret()).build();

        MeasurementResult result = run(spec);

        assertThat(result).isInstanceOf(RrResult.class);
        RrResult r = (RrResult) result;
        assertThat(r.completed()).isPositive();
        // a transaction completes when its response has arrived, which the agent wrote first
        assertThat(r.served()).isGreaterThanOrEqualTo(r.completed());
        // closed loop, one connection per flow: the agent accepted 3
        assertThat(r.accepts()).isEqualTo(3);

        StringWriter text = new StringWriter();
        r.report().writeText(new PrintWriter(text, true));
        assertNoSecretIn(List.of(spec.toString(), r.toString(), text.toString(), ResultJson.of(r).toJson(), ktap(r)));
    }

    @Test
    void withoutTheSecretTheAgentRefusesSoTheSpecsSecretIsWhatReachedIt() {
        PingPongSpec spec = PingPongSpec.builder().sizes(List.of(16)).policy(AgentLatencyTest.SHORT)
                .timeout(Duration.ofSeconds(5)).endpoint(peer(Optional.empty())).build();

        assertThatThrownBy(() -> run(spec)).isInstanceOf(TransferException.class)
                .hasMessageContaining("the agent at 127.0.0.1:" + agent.address().getPort() + " requires a shared secret");
    }

    @Test
    void anAgentPeerOfALatencyOrRawSpecTakesTheAddressAndSecretOnly() {
        AgentPeer reverse = AgentPeer.builder(Endpoint.remote("198.18.0.2", 7001)).direction(PeerDirection.REVERSE).build();
        AgentPeer four = AgentPeer.builder(Endpoint.remote("198.18.0.2", 7001)).streams(4).build();

        assertThatThrownBy(() -> PingPongSpec.builder().endpoint(reverse).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessage("linerate's agent at 198.18.0.2:7001 with "
                        + "direction reverse and 1 streams: a ping-pong run takes the agent's address and secret only; "
                        + "allowed: direction forward, 1 stream");
        assertThatThrownBy(() -> RrSpec.builder().endpoint(four).build())
                .hasMessageContaining("with direction forward and 4 streams: a request-response run");
        assertThatThrownBy(() -> RawTransferSpec.txOnly("lrt0a").peerInterface("eth1").endpoint(four).build())
                .hasMessageContaining("with direction forward and 4 streams: a raw-frames run");
    }
}
