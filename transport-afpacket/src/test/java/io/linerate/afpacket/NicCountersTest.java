package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NicCountersTest {

    /** Hands out queued readings; each read takes 3 ms of the manual clock. */
    static final class FakeSource implements CounterSource {
        final Deque<Raw> readings = new ArrayDeque<>();
        final ManualClock clock;

        FakeSource(ManualClock clock) {
            this.clock = clock;
        }

        FakeSource add(int ifindex, long rxPackets) {
            return add(ifindex, rxPackets, 0);
        }

        FakeSource add(int ifindex, long rxPackets, long txBytes) {
            long[] v = new long[NicCounter.values().length];
            v[NicCounter.RX_PACKETS.ordinal()] = rxPackets;
            v[NicCounter.TX_BYTES.ordinal()] = txBytes;
            readings.add(new Raw(ifindex, v));
            return this;
        }

        @Override
        public Raw read() throws IOException {
            clock.advance(3_000_000);
            Raw r = readings.poll();
            if (r == null) {
                throw new IOException("gone");
            }
            return r;
        }
    }

    private final ManualClock clock = new ManualClock(1_000);

    @Test
    void forwardMotionAccumulatesAndEachReadingIsStampedAfterTheRead() throws Exception {
        FakeSource src = new FakeSource(clock).add(4, 100, 10_000).add(4, 150, 15_000).add(4, 400, 15_000);
        NicCounters c = new NicCounters("eth0", src, clock);
        NicCounters.Snapshot a = c.read();
        assertThat(a.nanos()).isEqualTo(3_001_000);
        assertThat(a.get(NicCounter.RX_PACKETS)).isZero();
        clock.advance(1_000_000_000 - 3_000_000);
        NicCounters.Snapshot b = c.read();
        assertThat(b.nanos()).isEqualTo(1_003_001_000);
        assertThat(b.get(NicCounter.RX_PACKETS)).isEqualTo(50);
        assertThat(b.get(NicCounter.TX_BYTES)).isEqualTo(5_000);
        NicCounters.Delta d = b.minus(a);
        assertThat(d.nanos()).isEqualTo(1_000_000_000);
        assertThat(d.perSecond(NicCounter.RX_PACKETS).getAsDouble()).isEqualTo(50.0);
        assertThat(c.read().get(NicCounter.RX_PACKETS)).isEqualTo(300);
    }

    @Test
    void a32BitWrapCountsTheDistanceThrough2To32() throws Exception {
        FakeSource src = new FakeSource(clock).add(4, 4_294_967_280L).add(4, 4_294_967_290L).add(4, 5).add(4, 20);
        NicCounters c = new NicCounters("eth0", src, clock);
        c.read();
        assertThat(c.read().get(NicCounter.RX_PACKETS)).isEqualTo(10);
        NicCounters.Snapshot s = c.read();
        assertThat(s.get(NicCounter.RX_PACKETS)).isEqualTo(21);
        assertThat(s.rebases()).isZero();
        assertThat(c.read().get(NicCounter.RX_PACKETS)).isEqualTo(36);
    }

    @Test
    void aResetToZeroAddsNothingAndRebases() throws Exception {
        FakeSource src = new FakeSource(clock).add(4, 1_000, 64_000).add(4, 1_200, 76_800).add(4, 0, 0).add(4, 30, 1_920);
        NicCounters c = new NicCounters("eth0", src, clock);
        c.read();
        c.read();
        NicCounters.Snapshot afterReset = c.read();
        assertThat(afterReset.get(NicCounter.RX_PACKETS)).isEqualTo(200);
        assertThat(afterReset.rebases()).isEqualTo(2); // rx_packets and tx_bytes both stepped back
        assertThat(c.read().get(NicCounter.RX_PACKETS)).isEqualTo(230);
    }

    @Test
    void aTransientLowReadingIsNeverAHugeJump() throws Exception {
        FakeSource src = new FakeSource(clock).add(4, 5_000).add(4, 4_990).add(4, 5_010);
        NicCounters c = new NicCounters("eth0", src, clock);
        c.read();
        assertThat(c.read().get(NicCounter.RX_PACKETS)).isZero();
        // The low reading became the base: 4990 -> 5010 is 20 forward.
        assertThat(c.read().get(NicCounter.RX_PACKETS)).isEqualTo(20);
    }

    @Test
    void aReCreatedInterfaceIsDetectedByIfindexAndAddsNothing() throws Exception {
        FakeSource src = new FakeSource(clock).add(4, 10).add(4, 70).add(9, 900).add(9, 905);
        NicCounters c = new NicCounters("eth0", src, clock);
        c.read();
        c.read();
        NicCounters.Snapshot recreated = c.read();
        assertThat(recreated.get(NicCounter.RX_PACKETS)).isEqualTo(60);
        assertThat(recreated.rebases()).isEqualTo(1);
        assertThat(c.read().get(NicCounter.RX_PACKETS)).isEqualTo(65);
    }

    @Test
    void sysfsLayoutIsRead(@TempDir Path root) throws Exception {
        Path dir = Files.createDirectories(root.resolve("lrt0").resolve("statistics"));
        Files.writeString(root.resolve("lrt0").resolve("ifindex"), "12\n");
        for (NicCounter k : NicCounter.values()) {
            Files.writeString(dir.resolve(k.file()), (k.ordinal() + 1) + "\n");
        }
        Files.writeString(dir.resolve("tx_bytes"), "18446744073709551615\n");
        CounterSource.Raw raw = CounterSource.sysfs(root, "lrt0").read();
        assertThat(raw.ifindex()).isEqualTo(12);
        assertThat(raw.get(NicCounter.RX_PACKETS)).isEqualTo(1);
        assertThat(raw.get(NicCounter.TX_ERRORS)).isEqualTo(8);
        assertThat(raw.get(NicCounter.TX_BYTES)).isEqualTo(-1L); // 2^64 - 1, unsigned
        assertThatThrownBy(() -> CounterSource.sysfs(root, "nosuch0").read())
                .isInstanceOf(IOException.class).hasMessageContaining("interface nosuch0 does not exist");
    }
}
