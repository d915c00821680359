package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.Affinity;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
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
 * This client against an agent of the release before {@code --affinity}: the agent's side of the
 * exchange is a golden file of that release's messages (no {@code server_cpus} in its result), and
 * an echo that answers every byte. The run completes, and the figure the old agent cannot give is
 * missing with a note saying why, never invented; so is the echo end's {@code TCP_INFO}, which
 * that release does not send.
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
