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
 * {@code linerate pingpong} and {@code linerate rr} over TCP: the text gives each end's
 * {@code TCP_INFO} on a {@code # tcp_info (client): ...} and a {@code # tcp_info (server): ...} line
 * in the form of a stream's sender line; the JSON carries both under {@code tcp_info}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LatencyTcpInfoCommandTest {
    private static final String LINE = "# tcp_info \\((client|server)\\): retr \\d+ in the window, \\d+ in total; "
            + "cwnd \\d+ B; rtt \\d+ us, rttvar \\d+ us; pacing .*; delivery .*";
    private static final String[] PINGPONG = {"pingpong", "--sizes", "32", "--minms", "10", "--maxms", "300",
        "--miniter", "10", "--maxiter", "100", "--warmupiter", "0"};

    @Test
    void aTcpPingPongsTextHasAClientAndAServerLine() {
        Run r = linerate(PINGPONG);

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lines()).filteredOn(l -> l.startsWith("# tcp_info")).hasSize(2).allMatch(l -> l.matches(LINE));
        assertThat(r.out()).contains("# tcp_info (client): ").contains("# tcp_info (server): ");
    }

    @Test
    void rrsJsonCarriesBothEnds() throws Exception {
        Run r = linerate("rr", "--duration", "200ms", "--warmup", "50ms", "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode d = new ObjectMapper().readTree(r.out()).get("detail");
        assertThat(d.has("tcp_info_unavailable")).as(d.toString()).isFalse();
        for (String end : new String[] {"client", "server"}) {
            JsonNode t = d.get("tcp_info").get(end);
            assertThat(t.get("retransmits_window").asLong()).isNotNegative()
                    .isLessThanOrEqualTo(t.get("tcpi_total_retrans").asLong());
            assertThat(t.get("tcpi_rtt").asLong()).isPositive();
            assertThat(t.get("tcpi_snd_mss").asLong()).isPositive();
        }
    }
}
