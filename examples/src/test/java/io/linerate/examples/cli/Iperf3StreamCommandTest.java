package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.iperf3.Iperf3Agent;
import io.linerate.peers.iperf3.Iperf3ServerConfig;
import io.linerate.peers.server.AllowFrom;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code stream --peer-protocol iperf3 --bidir} against linerate's own iperf3 server in this JVM
 * (it speaks iperf3's bidirectional test as {@code iperf3 -s} does; the tests against the real
 * {@code iperf3 -s} are the peers module's Iperf3ClientTest and IperfTwoHostsTest).
 */
@Timeout(60)
class Iperf3StreamCommandTest {

    private static Iperf3Agent server() throws java.io.IOException {
        return Iperf3Agent.start(new Iperf3ServerConfig(InetAddress.getLoopbackAddress(), 0, AllowFrom.anyone(),
                AgentLimits.defaults(), Duration.ofSeconds(5)));
    }

    @Test
    void bidirPrintsEachDirectionTaggedAndBothEnds() throws Exception {
        try (Iperf3Agent srv = server()) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "stream", "--peer",
                    "127.0.0.1:" + srv.address().getPort(), "--peer-protocol", "iperf3", "--bidir", "--duration", "500ms");
            assertThat(code).as(out + "\n" + err).isZero();
            assertThat(out.toString()).contains("both directions at once")
                    .contains("[fwd] local  sent ").contains("[fwd] remote received ")
                    .contains("[rev] local  received ").contains("[rev] remote sent ")
                    .contains("[fwd] local  tcp4_sent_mbps").contains("[fwd] remote tcp4_mbps")
                    .contains("[rev] local  tcp4_mbps").contains("[rev] remote tcp4_sent_mbps");
        }
    }

    @Test
    void bidirWithParallelGivesThatManyStreamsEachWayInTheJson() throws Exception {
        try (Iperf3Agent srv = server()) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "stream", "--peer",
                    "127.0.0.1:" + srv.address().getPort(), "--peer-protocol", "iperf3", "--bidir", "--parallel", "2",
                    "--duration", "500ms", "--json");
            assertThat(code).as(out + "\n" + err).isZero();
            JsonNode j = new ObjectMapper().readTree(out.toString());
            JsonNode fwd = j.path("detail").path("forward");
            JsonNode rev = j.path("detail").path("reverse");
            // --parallel 2 --bidir: iperf3 numbers the streams 1, 3 (linerate sends), then 4, 5 (the server sends)
            assertThat(fwd.path("remote").path("streams").findValuesAsText("id")).containsExactlyInAnyOrder("1", "3");
            assertThat(rev.path("remote").path("streams").findValuesAsText("id")).containsExactlyInAnyOrder("4", "5");
            assertThat(fwd.path("reverse").asBoolean()).isFalse();
            assertThat(rev.path("reverse").asBoolean()).isTrue();
            // linerate reads the server's streams to their close: every byte the server says it sent
            assertThat(rev.path("local").path("bytes").asLong()).isPositive()
                    .isEqualTo(rev.path("remote").path("bytes").asLong());
            assertThat(j.path("metrics").findValuesAsText("direction")).contains("forward", "reverse");
        }
    }

    @Test
    void bidirWithReverseIsStillBadUsage() {
        StringWriter err = new StringWriter();
        int code = Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "stream", "--peer",
                "127.0.0.1:5201", "--peer-protocol", "iperf3", "--bidir", "--reverse");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--bidir runs both directions; --reverse picks one: give one of them");
    }
}
