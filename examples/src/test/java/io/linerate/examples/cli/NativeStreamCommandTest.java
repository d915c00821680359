package io.linerate.examples.cli;

import static io.linerate.examples.cli.LinerateCliTest.linerate;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.examples.cli.LinerateCliTest.Run;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code linerate stream --transport native}: the MSS as read, and the sender's TCP_INFO in the summary and each interval. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeStreamCommandTest {

    @Test
    void aNativeStreamReadsTheMssAndReportsRetransmits() throws Exception {
        Run r = linerate("stream", "--transport", "native", "--bytes", "10M", "--warmup", "0s", "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(r.out());
        JsonNode d = root.get("detail");
        // --bytes 10M is 1024-based: 10 x 1048576
        assertThat(d.get("bytes_received").asLong()).isEqualTo(d.get("bytes_sent").asLong()).isEqualTo(10_485_760L);
        assertThat(d.get("options").get("tcp_mss_source").asText()).startsWith("read: TCP_MAXSEG ");
        JsonNode tcp = d.get("tcp_info");
        assertThat(tcp.get("retransmits_window").asLong()).isNotNegative()
                .isLessThanOrEqualTo(tcp.get("tcpi_total_retrans").asLong());
        assertThat(tcp.get("tcpi_snd_mss").asLong()).isEqualTo(d.get("options").get("tcp_mss").asLong());
        assertThat(root.get("metrics")).anySatisfy(m -> {
            assertThat(m.get("name").asText()).isEqualTo("tcp4_retransmits");
            assertThat(m.get("unit").asText()).isEqualTo("segments");
        });
        // every interval carries the sender's TCP_INFO, read at its ticks
        assertThat(d.get("intervals")).isNotEmpty().allSatisfy(i -> {
            assertThat(i.get("retransmits").asLong()).isNotNegative();
            assertThat(i.get("cwnd_bytes").asLong() % tcp.get("tcpi_snd_mss").asLong()).isZero();
            assertThat(i.get("tcpi_rtt").asLong()).isPositive();
            assertThat(i.has("tcpi_rttvar")).isTrue();
            assertThat(i.has("tcpi_pacing_rate")).isTrue();
            assertThat(i.has("tcpi_delivery_rate")).isTrue();
        });
    }

    @Test
    void theTextShowsTheSendersRetransmitsAndCwnd() {
        Run r = linerate("stream", "--transport", "native", "--bytes", "1M", "--warmup", "0s");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lines()).anyMatch(l -> l.startsWith("# applied: ") && l.contains("(read: TCP_MAXSEG "));
        assertThat(r.lines()).anyMatch(l -> l.matches("# tcp_info \\(sender\\): retr \\d+ in the window, \\d+ in total; "
                + "cwnd \\d+ B; rtt \\d+ us, rttvar \\d+ us; pacing .*; delivery .*"));
        // the interval lines end with iperf3's Retr and Cwnd columns
        assertThat(r.lines()).anyMatch(l -> l.matches(" ?\\d+\\.\\d\\d- ?\\d+\\.\\d\\d sec  \\d+ Bytes  .* "
                + "Retr +\\d+  Cwnd +[\\d.]+ [KMG]?Bytes"));
    }

    @Test
    void zeroCopyAndSkipRxCopyDeliverEveryByteAndSayThePayloadWasNotChecked() throws Exception {
        Run text = linerate("stream", "--transport", "native", "-Z", "--skip-rx-copy", "--payload", "131072", "--bytes",
                "10M", "--warmup", "0s");

        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.lines()).anyMatch(l -> l.matches("# data path: sender sendfile\\(2\\), \\d+ calls, 1\\.0 per call "
                + "\\(at most 1\\); receiver recv\\(2\\) with MSG_TRUNC, \\d+ calls, 1\\.0 per call \\(at most 1\\); "
                + "payload not checked: .*"));

        Run json = linerate("stream", "--transport", "native", "-Z", "--skip-rx-copy", "--bytes", "10M", "--warmup", "0s",
                "--json");
        assertThat(json.exit()).as(json.err()).isZero();
        JsonNode d = new ObjectMapper().readTree(json.out()).get("detail");
        // --bytes 10M is 10 x 1048576, and TCP loses none of them
        assertThat(d.get("bytes_received").asLong()).isEqualTo(d.get("bytes_sent").asLong()).isEqualTo(10_485_760L);
        JsonNode path = d.get("data_path");
        assertThat(path.get("sender").get("call").asText()).isEqualTo("sendfile(2)");
        assertThat(path.get("receiver").get("call").asText()).isEqualTo("recv(2) with MSG_TRUNC");
        assertThat(path.get("payload_note").asText()).startsWith("payload not checked");
    }

    @Test
    void anAgentServingOnNativeSocketsRunsAStreamWithANativeClientBothWays() throws Exception {
        try (ServeRun serve = ServeRun.start("serve", "--port", "0", "--transport", "native")) {
            String peer = "127.0.0.1:" + serve.port();
            for (String direction : new String[] {"forward", "--reverse"}) {
                Run r = direction.equals("--reverse")
                        ? linerate("stream", "--peer", peer, "--transport", "native", "--reverse", "--duration", "500ms",
                                "--warmup", "100ms", "--json")
                        : linerate("stream", "--peer", peer, "--transport", "native", "--duration", "500ms", "--warmup",
                                "100ms", "--json");

                assertThat(r.exit()).as(direction + ": " + r.err()).isZero();
                JsonNode d = new ObjectMapper().readTree(r.out()).get("detail");
                // TCP delivers the stream whole: the receiver counted every byte the sender sent
                assertThat(d.get("bytes_received").asLong()).as(direction).isPositive()
                        .isEqualTo(d.get("bytes_sent").asLong());
                // each end read its own socket's MSS, not one derived from an MTU
                assertThat(d.get("options").get("tcp_mss_source").asText()).as(direction).startsWith("read: TCP_MAXSEG ");
            }
        }
    }

    @Test
    void theTransportsCommandListsItAvailable() {
        assertThat(linerate("transports").lines()).contains("native\tavailable");
    }

    @Test
    void theLoopbackSuiteRunsItsUdpAndTcpMarkersOnIt() {
        // the native transport moves UDP streams too (batched, one JVM): the suite's udp4 and tcp4 markers run on it
        Run r = linerate("loopback", "--transport", "native", "--family", "4", "--markers", "udp4,tcp4",
                "--duration", "200ms", "--warmup", "0s");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out().lines()).anyMatch(l -> l.startsWith("ZPERF-RESULT udp4_mbps="))
                .anyMatch(l -> l.startsWith("ZPERF-RESULT tcp4_mbps=")).contains("ZPERF-DONE");
        assertThat(r.err()).doesNotContain("cannot run");
    }
}
