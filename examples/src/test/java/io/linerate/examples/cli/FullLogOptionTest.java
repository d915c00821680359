package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code --full-log FILE} on {@code stream} (UDP) and {@code pingpong}. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FullLogOptionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aUdpStreamLogsEveryDatagramReceivedOrCountsItAsDropped() throws Exception {
        Path file = dir.resolve("stream.csv");
        LinerateCliTest.Run r = LinerateCliTest.linerate("stream", "--protocol", "udp", "--payload", "500",
                "--rate", "20M", "--duration", "300ms", "--warmup", "100ms", "--full-log", file.toString(), "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = JSON.readTree(r.out()).get("detail");
        JsonNode log = j.get("full_log");
        assertThat(log.get("file").asText()).isEqualTo(file.toString());
        assertThat(log.has("failure")).isFalse();
        long entries = log.get("entries").asLong();
        // every distinct datagram counts its 500 bytes once in bytes_received; loopback does not duplicate
        assertThat(entries + log.get("dropped").asLong()).isEqualTo(j.get("bytes_received").asLong() / 500);
        List<String> lines = Files.readAllLines(file);
        assertThat(lines.get(0)).isEqualTo("seq,bytes,phase,send_ns,recv_ns");
        assertThat(lines).hasSize(1 + (int) entries);
        long sent = j.get("messages_sent").asLong();
        assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(Long.parseLong(l.split(",")[0]))
                .isBetween(0L, sent - 1));
    }

    @Test
    void theTextSummarySaysWhatTheLogWrote() {
        Path file = dir.resolve("text.csv");
        LinerateCliTest.Run r = LinerateCliTest.linerate("stream", "--protocol", "udp", "--rate", "10M",
                "--duration", "200ms", "--warmup", "0ms", "--full-log", file.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("  full log " + java.util.regex.Pattern.quote(file.toString())
                + ": [0-9]+ entries written, [0-9]+ dropped");
    }

    @Test
    void aFullLogIsRefusedForTcpAndForAFileThatCannotBeCreated() {
        LinerateCliTest.Run tcp = LinerateCliTest.linerate("stream", "--full-log", dir.resolve("t.csv").toString());
        assertThat(tcp.exit()).isEqualTo(2);
        assertThat(tcp.err()).contains("a full log applies to UDP only: its entries are sequence-numbered datagrams, "
                + "and tcp has none");
        Path missing = dir.resolve("missing/x.csv");
        LinerateCliTest.Run udp = LinerateCliTest.linerate("stream", "--protocol", "udp", "--duration", "100ms",
                "--full-log", missing.toString());
        assertThat(udp.exit()).isEqualTo(2);
        assertThat(udp.err()).contains("cannot create the full log " + missing + ": its directory does not exist");
        PingPongCommandTest.Run pp = PingPongCommandTest.pingpong("--full-log", missing.toString());
        assertThat(pp.exit()).isEqualTo(2);
        assertThat(pp.err()).contains("cannot create the full log " + missing + ": its directory does not exist");
    }

    @Test
    void aPingPongLogsEveryRoundTripWithItsPhase() throws Exception {
        Path file = dir.resolve("pp.csv");
        PingPongCommandTest.Run r = PingPongCommandTest.pingpong(Stream.concat(Stream.of("--protocol", "udp",
                "--sizes", "16", "--full-log", file.toString(), "--json"), PingPongCommandTest.SHORT.stream())
                .toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = JSON.readTree(r.out()).get("detail");
        JsonNode log = j.get("full_log");
        // at most 20 warm-up and 200 measured round trips fit in one 1024-entry record: none dropped
        assertThat(log.get("dropped").asLong()).isZero();
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(1 + log.get("entries").asInt());
        long measured = lines.stream().skip(1).filter(l -> l.split(",")[2].equals("1")).count();
        assertThat(measured).isEqualTo(j.get("results").get(0).get("iterations").asLong());
        for (int i = 1; i < lines.size(); i++) {
            String[] c = lines.get(i).split(",");
            assertThat(Long.parseLong(c[0])).isEqualTo(i - 1);
            assertThat(c[1]).isEqualTo("16");
        }
    }
}
