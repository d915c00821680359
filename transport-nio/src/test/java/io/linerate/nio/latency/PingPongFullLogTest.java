package io.linerate.nio.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.fulllog.FullLogSummary;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.latency.SizeLatency;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code --full-log} of a ping-pong: one line per round trip, matching what the statistics hold. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PingPongFullLogTest {
    static final RunFacts FACTS = new RunFacts("test", "d", "u", "c", "j", "o");

    @TempDir
    Path dir;

    @ParameterizedTest
    @EnumSource(value = PingPongProtocol.class, names = {"UDP", "TCP"})
    void everyRoundTripIsOneLineInOrder(PingPongProtocol p) throws Exception {
        Path file = dir.resolve(p.label() + ".csv");
        // per size exactly 100 warm-up and 300 measured round trips (floor = cap)
        PingPongSpec spec = PingPongSpec.builder().protocol(p).sizes(List.of(8, 64)).clientMuxer(Muxer.SELECTOR)
                .serverMuxer(Muxer.SELECTOR).fullLog(file)
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(30), 300, 300, Duration.ZERO, 100))
                .timeout(Duration.ofSeconds(5)).build();
        PingPongResult r = PingPong.run(spec, Clock.system(), FACTS);
        // 2 sizes x (100 + 300) = 800 round trips; one record holds 1024 entries, so none is dropped
        assertThat(r.roundTrips()).isEqualTo(800);
        assertThat(r.fullLog()).contains(new FullLogSummary(file.toString(), 800, 0, Optional.empty()));

        List<String> lines = Files.readAllLines(file);
        assertThat(lines.get(0)).isEqualTo("seq,bytes,phase,send_ns,recv_ns");
        assertThat(lines).hasSize(801);
        long[] minMeasured = {Long.MAX_VALUE, Long.MAX_VALUE};
        for (int i = 0; i < 800; i++) {
            String[] c = lines.get(1 + i).split(",");
            assertThat(Long.parseLong(c[0])).isEqualTo(i);
            int sizeIndex = i / 400;
            assertThat(c[1]).isEqualTo(sizeIndex == 0 ? "8" : "64");
            // the first 100 round trips of each size are its warm-up (phase 0), the rest measured (1)
            assertThat(c[2]).isEqualTo(i % 400 < 100 ? "0" : "1");
            long rtt = Long.parseLong(c[4]) - Long.parseLong(c[3]);
            assertThat(rtt).isNotNegative();
            if (i % 400 >= 100) {
                minMeasured[sizeIndex] = Math.min(minMeasured[sizeIndex], rtt);
            }
        }
        // the histogram keeps the exact fastest measured round trip: the same as the log's
        List<SizeLatency> sizes = r.report().sizes();
        assertThat(sizes.get(0).roundTrips().min()).hasValue(minMeasured[0]);
        assertThat(sizes.get(1).roundTrips().min()).hasValue(minMeasured[1]);
    }

    @Test
    void aFullLogThatCannotBeCreatedIsAUsageErrorBeforeAnyTraffic() {
        Path missing = dir.resolve("missing/pp.csv");
        PingPongSpec spec = PingPongSpec.builder().fullLog(missing).build();
        assertThatThrownBy(() -> PingPong.run(spec, Clock.system(), FACTS))
                .isInstanceOf(TransferException.class)
                .hasMessage("cannot create the full log " + missing + ": its directory does not exist")
                .satisfies(e -> assertThat(((TransferException) e).isUsageError()).isTrue());
    }

    @Test
    void roundTripsAllocateNothingWhileLogging() throws Exception {
        // as PingPongAllocationTest: three runs of one size after a JIT warm-up; the client thread
        // records every round trip into the log and must allocate less than a byte per round trip
        // in each, nothing in one
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UDP).sizes(List.of(64, 64, 64))
                .clientMuxer(Muxer.SELECTOR).serverMuxer(Muxer.SELECTOR).fullLog(dir.resolve("alloc.csv"))
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(20), 2_000, 2_000,
                        Duration.ofMillis(300), 10_000))
                .timeout(Duration.ofSeconds(5)).build();
        PingPongResult r = PingPong.run(spec, Clock.system(), FACTS);
        assertThat(r.fullLog().orElseThrow().recorded()).isEqualTo(r.roundTrips());
        assertThat(r.sizes()).hasSize(3).allSatisfy(c -> assertThat(c.clientAllocatedBytes())
                .as("client bytes in %d round trips", c.measured()).isBetween(0L, c.measured() - 1));
        assertThat(r.sizes()).as("runs with no allocation on the client: %s", r.sizes())
                .filteredOn(c -> c.clientAllocatedBytes() == 0).isNotEmpty();
    }
}
