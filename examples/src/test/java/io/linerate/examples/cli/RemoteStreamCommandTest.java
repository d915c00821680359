package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class RemoteStreamCommandTest {

    /** An agent on 127.0.0.1, an ephemeral port, no secret, default limits. */
    private static Agent loopbackAgent() throws java.io.IOException {
        return Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)));
    }

    @Test
    void streamWithPeerPrintsBothEnds() throws Exception {
        try (Agent agent = loopbackAgent()) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "stream", "--peer",
                    "127.0.0.1:" + agent.address().getPort(), "--duration", "200ms", "--warmup", "0s",
                    "--interval", "100ms", "--reverse");

            assertThat(code).as(err.toString()).isZero();
            assertThat(out.toString()).contains("reverse (the agent sends)").contains("# local  received")
                    .contains("# remote sent");
        }
    }

    @Test
    void streamWithPeerWritesAKtapDocumentAndTheSendersWindowBytesAreTheWindowsTraffic() throws Exception {
        try (Agent agent = loopbackAgent()) {
            String peer = "127.0.0.1:" + agent.address().getPort();
            StringWriter out = new StringWriter();
            int code = Linerate.execute(new PrintWriter(out), new PrintWriter(new StringWriter()), "stream", "--peer", peer,
                    "--duration", "300ms", "--ktap");
            String ktap = out.toString();
            assertThat(ktap).startsWith("KTAP version 1" + System.lineSeparator() + "1..1");
            // valid (ok, with metric lines) or, on a host too loaded to move a byte, not ok with the reason and none
            if (code == 0) {
                assertThat(ktap).contains("ok 1 tcp4").contains("\"name\":\"tcp4_mbps\"");
            } else {
                assertThat(ktap).contains("not ok 1 tcp4 # invalid: ").doesNotContain("ktap-metric-json");
            }
            assertThat(ktap).contains("# Totals: ");

            StringWriter json = new StringWriter();
            Linerate.execute(new PrintWriter(json), new PrintWriter(new StringWriter()), "stream", "--peer", peer,
                    "--duration", "300ms", "--json");
            com.fasterxml.jackson.databind.JsonNode d = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(json.toString()).get("detail");
            // a TCP stream is in order and the receiver counted every byte sent, so the bytes the sender
            // wrote in its window all arrived: the window's traffic, whatever the warm-up left queued
            assertThat(d.get("bytes_received").asLong()).isEqualTo(d.get("bytes_sent").asLong());
            assertThat(d.get("window_bytes_received").asLong()).isEqualTo(d.get("window_bytes_sent").asLong());
        }
    }

    @Test
    void streamWithPeerBidirPrintsEachDirectionsEnds() throws Exception {
        try (Agent agent = loopbackAgent()) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "stream", "--peer",
                    "127.0.0.1:" + agent.address().getPort(), "--duration", "200ms", "--warmup", "0s",
                    "--interval", "100ms", "--bidir");

            assertThat(code).as(err.toString()).isZero();
            assertThat(out.toString()).contains("both directions at once").contains("[fwd] # local  sent")
                    .contains("[fwd] # remote received").contains("[rev] # local  received").contains("[rev] # remote sent");
        }
    }

    @Test
    void bidirWithReverseIsBadUsage() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "stream", "--peer", "127.0.0.1:7001",
                "--bidir", "--reverse");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--bidir runs both directions; --reverse picks one: give one of them");
    }

    @Test
    void serveOffLoopbackWithoutASecretIsBadUsage() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        // 198.18.0.1 need not exist on this host: the secret is checked before anything binds
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "serve", "--bind", "198.18.0.1");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("198.18.0.1, which is not a loopback address: it needs a shared secret (--secret-file)");
    }

    private static int run(StringWriter out, StringWriter err, String... args) {
        return Linerate.execute(new PrintWriter(out), new PrintWriter(err), args);
    }

    @Test
    void peerProtocolWithoutPeerIsBadUsage() {
        StringWriter err = new StringWriter();
        assertThat(run(new StringWriter(), err, "stream", "--peer-protocol", "iperf3")).isEqualTo(2);
        assertThat(err.toString()).contains("--peer-protocol iperf3 applies to a stream with --peer HOST:PORT only");
    }

    @Test
    void optionsOfALocalStreamAreRefusedWithAPeerBeforeConnecting() {
        // port 1 has no peer: a refusal after connecting would be exit 1, "connection refused"
        StringWriter err = new StringWriter();
        assertThat(run(new StringWriter(), err, "stream", "--peer", "127.0.0.1:1", "--port", "7000")).isEqualTo(2);
        assertThat(err.toString()).contains("--port applies to a stream whose both ends run in this JVM").contains("leave it out");

        StringWriter err2 = new StringWriter();
        assertThat(run(new StringWriter(), err2, "stream", "--peer", "127.0.0.1:1", "--peer-protocol", "iperf3", "--protocol", "udp",
                "--full-log", "x.csv", "--transport", "nio")).isEqualTo(2);
        assertThat(err2.toString()).contains("--transport, --full-log apply to a stream whose both ends run in this JVM")
                .contains("leave them out");
    }

    @Test
    void anAgentThatIsNotThereIsAFailureThatSaysWhatToStart() {
        StringWriter err = new StringWriter();
        // nothing listens on port 1 of loopback
        assertThat(run(new StringWriter(), err, "stream", "--peer", "127.0.0.1:1", "--duration", "100ms")).isEqualTo(1);
        assertThat(err.toString()).contains("stream with the agent at 127.0.0.1:1: ")
                .contains("nothing listens on port 1; is `linerate serve` running there (its default port is 7001)?");
    }

    @Test
    void countBoundWithTheAgentIsBadUsageBeforeConnecting() {
        StringWriter err = new StringWriter();
        // port 1 has no agent: a refusal after connecting would be exit 1, "connection refused"
        assertThat(run(new StringWriter(), err, "stream", "--peer", "127.0.0.1:1", "--bytes", "10M")).isEqualTo(2);
        // 10M = 10 x 1048576 = 10485760 bytes
        assertThat(err.toString()).contains("--bytes 10485760").contains("takes a duration bound only");
    }

    @Test
    void warmupWithIperf3IsBadUsage() {
        StringWriter err = new StringWriter();
        assertThat(run(new StringWriter(), err, "stream", "--peer", "127.0.0.1:1", "--peer-protocol", "iperf3",
                "--warmup", "1s")).isEqualTo(2);
        assertThat(err.toString()).contains("iperf3's server has no warm-up");
    }

    @Test
    void familyContradictingThePeerLiteralIsBadUsageNamingBoth() {
        for (String cmd : new String[] {"stream", "pingpong", "rr"}) {
            StringWriter err = new StringWriter();
            assertThat(run(new StringWriter(), err, cmd, "--peer", "[::1]:1", "--family", "4")).as(cmd).isEqualTo(2);
            assertThat(err.toString()).as(cmd).contains("--family 4 contradicts --peer [::1]:1, an IPv6 address");
        }
    }

    @Test
    void anIpv6PeerLiteralGivesTheFamily() throws Exception {
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getByName("::1"), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = run(out, err, "stream", "--peer", "[::1]:" + agent.address().getPort(), "--duration", "200ms",
                    "--warmup", "0s", "--interval", "100ms");

            assertThat(code).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
            assertThat(out.toString()).contains("tcp6");
        }
    }

    @Test
    void reverseWithoutPeerIsBadUsageNamingTheOptionsGiven() {
        StringWriter err = new StringWriter();
        int code = Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "stream", "--reverse");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--reverse applies to a stream with --peer HOST:PORT only; without --peer "
                + "both ends run in this JVM");
        StringWriter two = new StringWriter();
        code = Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(two), "stream", "--parallel", "2",
                "--bidir");
        assertThat(code).isEqualTo(2);
        assertThat(two.toString()).contains("--bidir, --parallel apply to a stream with --peer HOST:PORT only");
    }

    @Test
    void optionsOfOnePeerProtocolAreBadUsageWithTheOther() {
        StringWriter err = new StringWriter();
        int drain = Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "stream",
                "--peer", "127.0.0.1:7001", "--tcp-drain", "1s");
        assertThat(drain).isEqualTo(2);
        assertThat(err.toString()).contains("--udp-counters-64bit and --tcp-drain apply to --peer-protocol iperf3 only");

        StringWriter err2 = new StringWriter();
        int secret = Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err2), "stream",
                "--peer", "127.0.0.1:5201", "--peer-protocol", "iperf3", "--secret-file", "secret");
        assertThat(secret).isEqualTo(2);
        assertThat(err2.toString()).contains("--secret-file applies to linerate's agent; an iperf3 server takes no secret");

        StringWriter err3 = new StringWriter();
        int unknown = Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err3), "stream",
                "--peer", "127.0.0.1:12865", "--peer-protocol", "netperf");
        assertThat(unknown).isEqualTo(2);
        assertThat(err3.toString()).contains("peer protocol 'netperf' is not supported; allowed: linerate, iperf3, iperf2");
    }

    @Test
    void parallelWithTheAgentPrintsEachStreamAndTheSum() throws Exception {
        try (Agent agent = loopbackAgent()) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "stream", "--peer",
                    "127.0.0.1:" + agent.address().getPort(), "--duration", "200ms", "--warmup", "0s",
                    "--interval", "100ms", "--parallel", "3");

            assertThat(code).as(err.toString()).isZero();
            assertThat(out.toString()).contains("3 parallel streams").contains("[  0] # local  sent")
                    .contains("[  2] # remote received").contains("[SUM] local  tcp4_sent_mbps = ")
                    .contains("[SUM] remote tcp4_mbps = ").doesNotContain("[  3]");
        }
    }

    @Test
    void parallelOutOfRangeOrWithBidirIsBadUsageNamingTheValue() {
        for (String n : new String[] {"0", "129"}) {
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "stream",
                    "--peer", "127.0.0.1:7001", "--parallel", n);
            assertThat(code).isEqualTo(2);
            assertThat(err.toString()).contains("--parallel " + n + " is out of range; allowed: 1..128");
        }
        StringWriter err = new StringWriter();
        int code = Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "stream",
                "--peer", "127.0.0.1:7001", "--parallel", "2", "--bidir");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--bidir with --parallel 2 is not supported");
    }
}
