package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code --muxer backoff} and {@code --idle} on {@code pingpong} and {@code rr}. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class IdleOptionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static String[] pingpongShort(String... args) {
        return Stream.concat(Stream.of(args), PingPongCommandTest.SHORT.stream()).toArray(String[]::new);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--idle nap --muxer spin|unknown idle strategy 'nap'; allowed: busy, yield, backoff, sleep",
        "--idle sleep|idle strategy sleep applies to the polling muxers spin and backoff only; the client waits with "
                + "blocking and the server with blocking",
        "--idle busy --muxer selector --serv-muxer blocking|idle strategy busy applies to the polling muxers spin and "
                + "backoff only; the client waits with selector and the server with blocking",
    })
    void pingpongRefusesAnIdleStrategyWithoutAPollingEnd(String args, String message) {
        PingPongCommandTest.Run r = PingPongCommandTest.pingpong(args.split(" "));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message).doesNotContain("Exception");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void pingpongSaysHowEachEndWaits() throws Exception {
        PingPongCommandTest.Run r = PingPongCommandTest.pingpong(pingpongShort("--protocol", "udp", "--sizes", "8",
                "--muxer", "spin", "--serv-muxer", "backoff", "--idle", "sleep", "--json"));
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = JSON.readTree(r.out()).get("detail");
        assertThat(j.get("muxer").asText()).isEqualTo("spin");
        assertThat(j.get("idle").asText()).isEqualTo("sleep");
        assertThat(j.get("serv_muxer").asText()).isEqualTo("backoff");
        assertThat(j.get("serv_idle").asText()).isEqualTo("sleep");

        PingPongCommandTest.Run t = PingPongCommandTest.pingpong(pingpongShort("--protocol", "udp", "--sizes", "8",
                "--muxer", "backoff", "--serv-muxer", "selector"));
        assertThat(t.exit()).as(t.err()).isZero();
        assertThat(t.out().lines()).contains("# wait: client backoff (idle backoff), server selector");
    }

    @Test
    void ktapLabelsTheIdleStrategyOnlyWhenItIsNotTheMuxersOwn() {
        PingPongCommandTest.Run own = PingPongCommandTest.pingpong(pingpongShort("--sizes", "8", "--muxer", "spin",
                "--ktap"));
        assertThat(own.exit()).as(own.err()).isZero();
        assertThat(own.out().lines().filter(l -> l.contains("ktap-metric-json")))
                .isNotEmpty().allSatisfy(l -> assertThat(l).contains("\"muxer\":\"spin\"").doesNotContain("\"idle\""));
        PingPongCommandTest.Run other = PingPongCommandTest.pingpong(pingpongShort("--sizes", "8", "--muxer", "spin",
                "--idle", "yield", "--ktap"));
        assertThat(other.exit()).as(other.err()).isZero();
        assertThat(other.out().lines().filter(l -> l.contains("ktap-metric-json")))
                .isNotEmpty().allSatisfy(l -> assertThat(l).contains("\"idle\":\"yield\""));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "rr --muxer blocking|muxer blocking is not available for request/response: one server thread serves every "
                + "connection; allowed: selector, spin, backoff",
        "rr --idle busy|idle strategy busy applies to the polling muxers spin and backoff only, not selector",
        "rr --muxer spin --idle nap|unknown idle strategy 'nap'; allowed: busy, yield, backoff, sleep",
    })
    void rrRefusesWhatItCannotWaitWith(String args, String message) {
        RrCommandTest.Run r = RrCommandTest.rr(args.split(" "));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message).doesNotContain("Exception");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void rrOnPollingSocketsSaysSoInItsNotes() throws Exception {
        RrCommandTest.Run r = RrCommandTest.rr("rr", "--duration", "300ms", "--warmup", "100ms", "--muxer", "backoff",
                "--json");
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = JSON.readTree(r.out()).get("detail");
        List<String> notes = new ArrayList<>();
        j.get("notes").forEach(n -> notes.add(n.asText()));
        assertThat(notes).contains("the flows and the server poll their sockets (muxer backoff, idle backoff): a "
                + "thread that waits long parks between polls, and its wake-up delay adds to latency");
    }
}
