package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.testsupport.Iperf3Server;
import io.linerate.testsupport.PeerTool;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code stream -c 127.0.0.1 -p PORT} with iperf3's short options against the real {@code iperf3 -s}
 * ({@link Iperf3Server}), one one-off server per test, 1-second tests at small rates. Every
 * assertion is a count that holds under any load; none expects zero loss.
 */
@Timeout(120)
class Iperf3ClientCommandTest {
    private record Run(int exit, String out, String err) {}

    @BeforeAll
    static void needIperf3() {
        PeerTool.require("iperf3", "iperf3");
    }

    private static Run stream(Iperf3Server srv, String... iperf3Options) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = Stream.concat(Stream.of("stream", "-c", "127.0.0.1", "-p", Integer.toString(srv.port)),
                Arrays.stream(iperf3Options)).toArray(String[]::new);
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void udpWithJsonIsParseableAndTheServerReceivedWholeDatagrams() throws Exception {
        try (Iperf3Server srv = Iperf3Server.start(true)) {
            Run r = stream(srv, "-t", "1", "-u", "-b", "2M", "-l", "1400", "-J");
            assertThat(r.exit()).as(r.out() + r.err()).isZero();
            JsonNode d = new ObjectMapper().readTree(r.out()).path("detail");
            assertThat(d.path("peer_protocol").asText()).isEqualTo("iperf3");
            assertThat(d.path("protocol").asText()).isEqualTo("udp");
            assertThat(d.path("payload").asInt()).isEqualTo(1400);
            assertThat(d.path("rate_bps").asLong()).isEqualTo(2_000_000L);
            long received = d.path("remote").path("bytes").asLong();
            assertThat(received).isPositive();
            // the server counts whole datagrams of -l bytes
            assertThat(received % 1400).isZero();
            assertThat(d.path("local").path("bytes").asLong()).isEqualTo(d.path("local").path("datagrams_sent").asLong() * 1400);
        }
    }

    @Test
    void tcpReverseWithTwoStreamsPrintsTheHeaderAndReceivesWhatTheServerSent() throws Exception {
        try (Iperf3Server srv = Iperf3Server.start(true)) {
            Run r = stream(srv, "-t", "1", "-R", "-P", "2", "-b", "20M", "-w", "256K");
            assertThat(r.exit()).as(r.out() + r.err()).isZero();
            String[] lines = r.out().split("\\R");
            assertThat(lines[0]).isEqualTo("# iperf3 client options: -c 127.0.0.1 -p " + srv.port
                    + " -t 1 -b 20000000 -l 131072 -P 2 -R -w 262144 -4 (iperf3's meanings)");
            assertThat(lines[1]).contains("stream against iperf3 at 127.0.0.1:" + srv.port).contains("reverse parallel=2");
            String local = Arrays.stream(lines).filter(l -> l.startsWith("local  received ")).findFirst().orElseThrow();
            String remote = Arrays.stream(lines).filter(l -> l.startsWith("remote sent ")).findFirst().orElseThrow();
            long got = Long.parseLong(local.split(" +")[2]);
            assertThat(got).isPositive();
            // linerate reads the server's streams to their close: every byte the server says it sent
            assertThat(remote).isEqualTo("remote sent " + got + " bytes");
        }
    }
}
