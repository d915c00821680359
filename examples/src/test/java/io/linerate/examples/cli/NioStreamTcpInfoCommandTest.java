package io.linerate.examples.cli;

import static io.linerate.examples.cli.LinerateCliTest.linerate;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.examples.cli.LinerateCliTest.Run;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code linerate stream} on the default {@code nio} transport: the command line's class path holds
 * linerate-native, so a TCP stream reports the sender's {@code tcp_info} (read through sock_diag),
 * while its MSS stays derived; a UDP stream reports none.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NioStreamTcpInfoCommandTest {

    @Test
    void aNioTcpStreamReportsTheSendersTcpInfoAndItsRetransmitsMetric() throws Exception {
        Run r = linerate("stream", "--bytes", "10M", "--warmup", "0s", "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode root = new ObjectMapper().readTree(r.out());
        JsonNode d = root.get("detail");
        assertThat(d.get("options").get("tcp_mss_source").asText()).startsWith("read: tcpi_snd_mss ");
        JsonNode tcp = d.get("tcp_info");
        assertThat(tcp).as(d.toString()).isNotNull();
        assertThat(tcp.get("retransmits_window").asLong()).isNotNegative()
                .isLessThanOrEqualTo(tcp.get("tcpi_total_retrans").asLong());
        assertThat(tcp.get("tcpi_snd_mss").asLong()).isPositive();
        assertThat(root.get("metrics")).anySatisfy(m -> {
            assertThat(m.get("name").asText()).isEqualTo("tcp4_retransmits");
            assertThat(m.get("unit").asText()).isEqualTo("segments");
        });
    }

    @Test
    void theTextSummaryShowsTheSendersRetransmitsAndCwnd() {
        Run r = linerate("stream", "--bytes", "1M", "--warmup", "0s");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lines()).anyMatch(l -> l.matches("# tcp_info \\(sender\\): retr \\d+ in the window, \\d+ in total; "
                + "cwnd \\d+ B; rtt \\d+ us, rttvar \\d+ us; pacing .*; delivery .*"));
    }

    @Test
    void aUdpStreamHasNoTcpInfo() throws Exception {
        Run r = linerate("stream", "--protocol", "udp", "--bytes", "1M", "--warmup", "0s", "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(new ObjectMapper().readTree(r.out()).get("detail").has("tcp_info")).isFalse();
    }
}
