package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.Clock;
import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.CountersFileReader;
import io.linerate.core.live.LiveCounters;
import io.linerate.testsupport.VethPair;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A running raw transfer publishes its counters to the process's live counters file, and removes it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LiveRawCountersTest {
    @TempDir
    Path dir;

    @BeforeEach
    void useTempDir() {
        assumeTrue(AfPacket.isAvailable(), () -> "AF_PACKET unavailable: " + AfPacket.unavailabilityCause().orElse(""));
        assumeTrue(LiveCounters.unavailabilityCause().isEmpty(), "live counters unavailable");
        LiveCounters.process().directory(dir);
    }

    @AfterEach
    void restore() {
        LiveCounters.process().directory(null);
    }

    @Test
    void everyIntervalSeesTheRunsCountersInTheFileAndTheFileGoesAfterwards() throws Exception {
        try (VethPair v = VethPair.create()) {
            RawTransferSpec spec = RawTransferSpec.builder(v.a, v.b).frameSize(256).rateBitsPerSecond(10_000L * 256 * 8)
                    .batch(8).warmup(Duration.ofMillis(100)).duration(Duration.ofMillis(400)).interval(Duration.ofMillis(100))
                    .hardwareTimestamps(false).build();
            List<CounterGroup> seen = new ArrayList<>();
            List<RawInterval> intervals = new ArrayList<>();
            RawResult r = RawTransfer.run(spec, Clock.system(), i -> {
                intervals.add(i);
                seen.add(group("raw tx " + v.a + " rx " + v.b + " 256 B 0.400 s"));
            });
            assertThat(r.valid()).as("reasons %s", r.reasons()).isTrue();
            assertThat(seen).hasSizeGreaterThanOrEqualTo(2);
            long prevSent = 0;
            long prevReceived = 0;
            for (CounterGroup g : seen) {
                long sent = g.value(CounterType.MESSAGES_SENT).orElseThrow();
                long received = g.value(CounterType.MESSAGES_RECEIVED).orElseThrow();
                // 256-byte frames: bytes are frames × 256 on both sides
                assertThat(g.value(CounterType.BYTES_SENT)).hasValue(sent * 256);
                assertThat(g.value(CounterType.BYTES_RECEIVED)).hasValue(received * 256);
                assertThat(sent).isGreaterThanOrEqualTo(prevSent);
                assertThat(received).isGreaterThanOrEqualTo(prevReceived);
                assertThat(g.value(CounterType.LOST)).hasValue(0);
                prevSent = sent;
                prevReceived = received;
            }
            // the last interval closes after the sender ended: it sees the sender's final count
            CounterGroup last = seen.get(seen.size() - 1);
            assertThat(last.value(CounterType.MESSAGES_SENT)).hasValue(r.txFramesTotal().orElseThrow());
            RawInterval lastInterval = intervals.get(intervals.size() - 1);
            long rate = Math.round(lastInterval.rx().orElseThrow().bitsPerSecond().orElseThrow());
            assertThat(last.value(CounterType.RATE)).as("the interval's own receive rate").hasValue(rate);
        }
        assertThat(LiveCounters.process().file()).isEmpty();
        assertThat(dir).as("the file is removed after the run").isEmptyDirectory();
    }

    @Test
    void aRunThatFailsRemovesTheFileToo() throws Exception {
        try (VethPair v = VethPair.create()) {
            List<CounterGroup> seen = new ArrayList<>();
            RawTransferSpec spec = RawTransferSpec.txOnly(v.a).destinationMac(new byte[] {2, 0, 0, 0, 0, 2}).frameSize(128)
                    .rateBitsPerSecond(10_000L * 128 * 8).warmup(Duration.ZERO).duration(Duration.ofSeconds(30))
                    .interval(Duration.ofMillis(100)).build();
            assertThatThrownBy(() -> RawTransfer.run(spec, Clock.system(), i -> {
                seen.add(group("raw tx " + v.a + " 128 B 30.000 s"));
                throw new IllegalStateException("listener gave up");
            })).hasMessage("listener gave up");
            // a sender alone publishes what it sent and nothing received
            assertThat(seen).singleElement().satisfies(g -> {
                assertThat(g.value(CounterType.MESSAGES_SENT).orElseThrow()).isPositive();
                assertThat(g.value(CounterType.MESSAGES_RECEIVED)).hasValue(0);
            });
        }
        assertThat(LiveCounters.process().file()).isEmpty();
        assertThat(dir).isEmptyDirectory();
    }

    private static CounterGroup group(String label) {
        try {
            return CountersFileReader.read(LiveCounters.process().file().orElseThrow()).orElseThrow().groups().stream()
                    .filter(g -> g.kind() == CounterGroup.Kind.TRANSFER && g.label().equals(label))
                    .findFirst().orElseThrow(() -> new AssertionError("no transfer labelled '" + label + "'"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
