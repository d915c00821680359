package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.Affinity;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Protocol;
import io.linerate.core.TcpStats;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.EndJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * This client against agents of earlier releases: the agent's side of the exchange is a golden file
 * of that release's messages, and an echo that answers every byte (before {@code --affinity}: no
 * {@code server_cpus} in its result, and no echo end's {@code TCP_INFO}) or a sender that writes for
 * the spec's duration (before {@code tcp_intervals}: its end-of-run {@code tcp_info} only). The run
 * completes, and the figures the old agent cannot give are missing with a note saying why, never
 * invented.
 */
@Timeout(60)
class OldAgentExchangeTest {

    private static List<String> golden(String name) throws IOException {
        try (InputStream in = OldAgentExchangeTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().filter(l -> !l.isBlank()).toList();
        }
    }

    private static ObjectNode fill(String line, Map<String, Long> values) throws IOException {
        String s = line;
        for (Map.Entry<String, Long> e : values.entrySet()) {
            s = s.replace("\"${" + e.getKey() + "}\"", Long.toString(e.getValue()));
        }
        return (ObjectNode) Control.MAPPER.readTree(s);
    }

    /** Plays the old agent's messages in order, echoing a TCP ping-pong in between; returns the client's request. */
    private static JsonNode oldAgent(ServerSocket control, List<String> script) throws IOException {
        AtomicLong echoes = new AtomicLong();
        AtomicLong bytes = new AtomicLong();
        try (Socket s = control.accept(); Control c = new Control(s, 30_000);
             ServerSocket data = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            c.send(fill(script.get(0), Map.of()));
            JsonNode request = c.expect("pingpong");
            c.send(fill(script.get(1), Map.of("PORT", (long) data.getLocalPort())));
            try (Socket d = data.accept()) {
                d.setSoTimeout(30_000);
                InputStream in = d.getInputStream();
                OutputStream out = d.getOutputStream();
                byte[] buf = new byte[64 * 1024];
                int n;
                while ((n = in.read(buf)) > 0) {
                    out.write(buf, 0, n);
                    echoes.incrementAndGet();
                    bytes.addAndGet(n);
                }
            }
            c.expect("done");
            c.send(fill(script.get(2), Map.of("ECHOES", echoes.get(), "BYTES", bytes.get())));
            return request;
        }
    }

    /**
     * Plays an old agent's reverse TCP stream: after the client's {@code start} and {@code go} it
     * writes for the spec's duration by its own clock, as an agent's sender keeps its window, then
     * ends the stream and sends its counts; returns the client's request.
     */
    private static JsonNode oldStreamAgent(ServerSocket control, List<String> script, Duration duration)
            throws IOException {
        try (Socket s = control.accept(); Control c = new Control(s, 30_000);
             ServerSocket data = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            c.send(fill(script.get(0), Map.of()));
            JsonNode request = c.expect("stream");
            c.send(fill(script.get(1), Map.of("PORT", (long) data.getLocalPort())));
            long bytes = 0;
            long writes = 0;
            long start;
            try (Socket d = data.accept()) {
                c.expect("start");
                c.expect(Control.GO);
                OutputStream out = d.getOutputStream();
                byte[] buf = new byte[16 * 1024];
                start = System.nanoTime();
                while (System.nanoTime() - start < duration.toNanos()) {
                    out.write(buf);
                    bytes += buf.length;
                    writes++;
                }
                d.shutdownOutput();
            }
            long window = System.nanoTime() - start;
            c.send(fill(script.get(2), Map.of("BYTES", bytes, "MESSAGES", writes, "WINDOW_END_NS", window)));
            return request;
        }
    }

    @Test
    void aReverseStreamFromAnAgentBeforeTcpIntervalsStaysValidAndSaysWhyItsIntervalsHaveNoFigures() throws Exception {
        List<String> script = golden("agent-before-tcp-intervals-stream.jsonl");
        Duration duration = Duration.ofMillis(300);
        ExecutorService agent = Executors.newSingleThreadExecutor();
        try (ServerSocket control = new ServerSocket()) {
            control.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Future<JsonNode> request = agent.submit(() -> oldStreamAgent(control, script, duration));
            TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4)
                    .payloadBytes(64 * 1024).duration(duration).warmup(Duration.ZERO).interval(Duration.ofMillis(100))
                    .ioTimeout(Duration.ofSeconds(10)).endpoint(Endpoint.remote("127.0.0.1", control.getLocalPort())).build();
            RemoteStreamResult r;
            try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec, Clock.system(),
                    new RemoteOptions(Optional.empty(), true))) {
                r = t.runBothEnds(IntervalListener.NONE);
            }

            assertThat(request.get(30, TimeUnit.SECONDS).path("direction").asText()).isEqualTo("reverse");
            assertThat(r.transfer().invalidReasons()).isEmpty();
            assertThat(r.local().bytes()).isEqualTo(r.remote().bytes()).isPositive();
            // its end-of-run figures come back as it sent them
            assertThat(r.transfer().tcp()).contains(new TcpStats(1, 2, 654_830, 41, 8, -1, 1_250_000_000L, 65_483, -1));
            // its per-interval figures do not, and the result says why
            assertThat(r.transfer().intervals()).isNotEmpty().allSatisfy(s -> assertThat(s.tcp()).isEmpty());
            String why = "the agent sent no per-interval TCP_INFO (tcp_intervals): an agent of a release before them "
                    + "keeps its intervals to itself and sends its end-of-run tcp_info only";
            assertThat(r.farSenderIntervals()).contains(new FarSenderIntervals(0, 0, why));
            JsonNode detail = Control.MAPPER.readTree(r.detailJson().toJson());
            assertThat(detail.get("tcp_intervals_unavailable").asText()).isEqualTo(why);
            assertThat(detail.has("tcp_intervals")).isFalse();
        } finally {
            agent.shutdownNow();
            assertThat(agent.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }

    @Test
    void aPingPongWhoseServerCpuTheOldAgentIgnoresRunsAndSaysTheSetIsUnknown() throws Exception {
        List<String> script = golden("agent-before-affinity-pingpong.jsonl");
        ExecutorService agent = Executors.newSingleThreadExecutor();
        try (ServerSocket control = new ServerSocket()) {
            control.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Future<JsonNode> request = agent.submit(() -> oldAgent(control, script));
            PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.TCP).sizes(List.of(32))
                    .policy(AgentLatencyTest.SHORT).timeout(Duration.ofSeconds(10))
                    .endpoint(Endpoint.remote("127.0.0.1", control.getLocalPort())).affinity(Affinity.parse("any;0")).build();
            RemotePingPongResult r;
            try (RemoteLatency m = RemoteLatency.of(spec, Clock.system(), new RemoteOptions(Optional.empty(), false))) {
                r = (RemotePingPongResult) m.run();
            }

            assertThat(request.get(30, TimeUnit.SECONDS).path("spec").path("server_cpu").asInt(-1)).isZero();
            assertThat(r.agentEchoes()).isEqualTo(r.local().roundTrips());
            assertThat(r.agentEchoedBytes()).isEqualTo(32L * r.local().roundTrips());
            assertThat(r.local().report().affinity()).isPresent();
            assertThat(r.local().report().affinity().get().server()).isEmpty();
            assertThat(r.local().report().notes()).contains("the agent did not report its echo thread's CPU set: an agent "
                    + "older than --affinity runs it unpinned");
            assertThat(r.local().report().table()).contains("# affinity: client any, server any (");
            // the old agent's result has no tcp_info: the server's end says so, this host's is read here
            assertThat(r.local().tcpInfo().orElseThrow().server().unavailable()).isEqualTo(EndJson.OLDER_AGENT);
            assertThat(r.local().tcpInfo().orElseThrow().server().stats()).isEmpty();
            assertThat(r.detailJson().toString()).contains("\"tcp_info_unavailable\":{\"server\":\""
                    + EndJson.OLDER_AGENT + "\"}");
        } finally {
            agent.shutdownNow();
            assertThat(agent.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }
}
