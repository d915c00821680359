package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.AllowFrom;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real {@code iperf3 -c} against linerate's iperf3 server with options that change what the
 * server counts or allows: {@code -O} (omit), {@code -w} (window) and {@code -P} beyond
 * {@code --max-streams}. Assertions are identities between the two sides' counts, never rates.
 */
class Iperf3AgentOptionsTest {
    private static String IPERF3;

    @BeforeAll
    static void needIperf3() {
        IPERF3 = RealIperf3.require();
    }

    private static Iperf3Agent agent(AgentLimits limits) throws Exception {
        return Iperf3Agent.start(new Iperf3ServerConfig(InetAddress.getByName("127.0.0.1"), 0, AllowFrom.anyone(), limits,
                Duration.ofSeconds(5)));
    }

    @Test
    void tcpOmittedSecondsAreLeftOutOfTheServersCount() throws Exception {
        try (Iperf3Agent a = agent(AgentLimits.defaults())) {
            // 1 MiB buffers bound what can be in flight: Linux doubles each, so at most 2 + 2 MiB
            long inFlight = 4L << 20;
            RealIperf3.Run r = RealIperf3.run(IPERF3, a, "-t", "1", "-O", "1", "-b", "200M", "-w", "1M", "-J",
                    "--get-server-output");
            assertThat(r.exit()).as(r.out()).isZero();
            JsonNode end = r.json().path("end");
            long sent = end.path("sum_sent").path("bytes").asLong();
            long received = r.json().path("server_output_json").path("sum").path("bytes_received").asLong();
            assertThat(end.path("sum_received").path("bytes").asLong()).isEqualTo(received);
            // the client's sent bytes are those after its omit period; the server's may differ only by what was
            // in flight when either side's omit period ended (counting the omitted second too would add as much again)
            assertThat(sent).isPositive();
            assertThat(received).isBetween(sent - inFlight, sent + inFlight);
        }
    }

    @Test
    void udpOmittedSecondsAreLeftOutOfTheServersCount() throws Exception {
        try (Iperf3Agent a = agent(AgentLimits.defaults())) {
            RealIperf3.Run r = RealIperf3.run(IPERF3, a, "-u", "-t", "1", "-O", "1", "-b", "20M", "-l", "1400", "-J",
                    "--get-server-output");
            assertThat(r.exit()).as(r.out()).isZero();
            JsonNode end = r.json().path("end");
            long sentPackets = end.path("sum_sent").path("packets").asLong();
            JsonNode server = r.json().path("server_output_json").path("sum");
            long receivedBytes = server.path("bytes_received").asLong();
            assertThat(receivedBytes % 1400).isZero();
            long received = receivedBytes / 1400;
            long lost = server.path("lost_packets").asLong();
            assertThat(sentPackets).isPositive();
            // the server counts from its own omit period's end, the client from its: datagrams in flight
            // at either end may fall on either side, a few at 20 Mbit/s on loopback
            long slack = sentPackets / 10 + 16;
            assertThat(received + lost).isBetween(sentPackets - slack, sentPackets + slack);
            assertThat(received).isLessThanOrEqualTo(sentPackets + slack);
            // what iperf3 prints for the receiver is that count: never more lost than sent
            JsonNode theirs = end.path("sum_received");
            assertThat(theirs.path("packets").asLong()).isPositive();
            assertThat(theirs.path("lost_packets").asLong()).isBetween(0L, theirs.path("packets").asLong());
        }
    }

    @Test
    void moreStreamsThanMaxStreamsAreRefusedWithIperf3sError() throws Exception {
        try (Iperf3Agent a = agent(new AgentLimits(4, Duration.ofMinutes(1), 0, 1 << 20, 2))) {
            RealIperf3.Run r = RealIperf3.run(IPERF3, a, "-t", "1", "-P", "3");
            assertThat(r.exit()).isNotZero();
            // iperf3's message for IENUMSTREAMS (iperf_error.c)
            assertThat(r.out()).contains("number of parallel streams too large");
            assertThat(a.refusals()).isEqualTo(1);
            RealIperf3.Run two = RealIperf3.run(IPERF3, a, "-t", "1", "-P", "2", "-J");
            assertThat(two.exit()).as(two.out()).isZero();
        }
    }

    @Test
    void aSmallWindowCountsWhatTheClientSent() throws Exception {
        try (Iperf3Agent a = agent(AgentLimits.defaults())) {
            RealIperf3.Run r = RealIperf3.run(IPERF3, a, "-t", "1", "-w", "4K", "-J");
            assertThat(r.exit()).as(r.out()).isZero();
            JsonNode end = r.json().path("end");
            long sent = end.path("sum_sent").path("bytes").asLong();
            assertThat(sent).isPositive();
            // the server reads what has arrived after TEST_END: with 4 KiB buffers little can be left unread
            assertThat(end.path("sum_received").path("bytes").asLong()).isLessThanOrEqualTo(sent)
                    .isGreaterThanOrEqualTo(sent - 64 * 1024);
        }
    }
}
