package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NicCountersTest {

    /**
     * Hands out queued readings; each read takes 3 ms of the manual clock, so a reading's samples
     * lie between a clock reading before it and one 3 ms later.
     */
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
            return add(ifindex, rxPackets, txBytes, 0);
        }

        /** A reading of a link of {@code linkBps} bit/s (0 = unknown). */
        FakeSource add(int ifindex, long rxPackets, long txBytes, long linkBps) {
            long[] v = new long[NicCounter.values().length];
            v[NicCounter.RX_PACKETS.ordinal()] = rxPackets;
            v[NicCounter.TX_BYTES.ordinal()] = txBytes;
            readings.add(new Raw(ifindex, v, linkBps));
            return this;
        }

        /** Readings of rx_packets only, all on a link of {@code linkBps} bit/s. */
        FakeSource packets(long linkBps, long... rxPackets) {
            for (long p : rxPackets) {
                add(4, p, 0, linkBps);
            }
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

    private static final long GBIT = 1_000_000_000L;
    private static final Duration NO_PAUSE = Duration.ZERO;

    private final ManualClock clock = new ManualClock(1_000);

    private long rx(NicCounters.Snapshot s) {
        return s.get(NicCounter.RX_PACKETS);
    }

    private long rxEvents(NicCounters.Snapshot s, CounterEvent e) {
        return s.count(NicCounter.RX_PACKETS, e);
    }

    /** Reads {@code n} times and returns the last snapshot. */
    private static NicCounters.Snapshot readN(NicCounters c, int n) throws IOException {
        NicCounters.Snapshot s = null;
        for (int i = 0; i < n; i++) {
            s = c.read();
        }
        return s;
    }

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
    void aOneUnitDipThatTheNextReadingClimbsOverIsOneGlitchAddingOne() throws Exception {
        // 1000, 999, 1001: the counter moved forward from 1000 to 1001, by 1; 999 is a glitch
        NicCounters c = new NicCounters("eth0", new FakeSource(clock).packets(0, 1000, 999, 1001), clock);
        c.read();
        NicCounters.Snapshot dip = c.read();
        assertThat(rx(dip)).isZero();
        assertThat(dip.inDoubt()).containsExactly(NicCounter.RX_PACKETS);
        NicCounters.Snapshot s = c.read();
        assertThat(rx(s)).isEqualTo(1);
        assertThat(rxEvents(s, CounterEvent.GLITCH)).isEqualTo(1);
        // the speed is unknown, so a reset to 0 that counted 999 and then 2 cannot be ruled out
        assertThat(rxEvents(s, CounterEvent.AMBIGUOUS)).isEqualTo(1);
        assertThat(rxEvents(s, CounterEvent.RESET)).isZero();
        assertThat(s.inDoubt()).isEmpty();
    }

    @Test
    void aTransientZeroIsAGlitchNotASpike() throws Exception {
        // 1000, 1050, 1100, 0, 1150, 1200: forward motion 50 + 50 + (1150 - 1100) + 50 = 200
        NicCounters c = new NicCounters("eth0", new FakeSource(clock).packets(0, 1000, 1050, 1100, 0, 1150, 1200), clock);
        NicCounters.Snapshot s = readN(c, 6);
        assertThat(rx(s)).isEqualTo(200);
        assertThat(rxEvents(s, CounterEvent.GLITCH)).isEqualTo(1);
        assertThat(rxEvents(s, CounterEvent.RESET)).isZero();
    }

    @Test
    void aDipThatAWrapOrAResetExplainsCountsTheResetsNothingAndIsAPossibleWrap() throws Exception {
        // 4294967000 then 200, 200 on a 1 Gbit/s link: a wrap would be 2^32 - 4294967000 = 296, plus
        // 200, 496 frames; the link carries at most 10^9 / 672 frames/s, 8928.6 in the 6 ms from the
        // clock reading before the first read to the one after the second, so a wrap fits. So does
        // a reset, which adds nothing: the smaller motion is counted, the wrap is flagged.
        NicCounters c = new NicCounters("eth0", new FakeSource(clock).packets(GBIT, 4_294_967_000L, 200, 200), clock);
        c.read();
        assertThat(rx(c.read())).isZero();
        NicCounters.Snapshot s = c.read();
        assertThat(rx(s)).isZero();
        assertThat(rxEvents(s, CounterEvent.RESET)).isEqualTo(1);
        assertThat(rxEvents(s, CounterEvent.POSSIBLE_WRAP)).isEqualTo(1);
        assertThat(s.inDoubt()).isEmpty();
    }

    @Test
    void onAFastLinkAOneByteDipThatStaysIsAResetAddingNothingNotA4GbWrap() throws Exception {
        // tx_bytes 3000000000, 2999999999, 2999999999 read 1 s apart on a 100 Gbit/s link. A wrap
        // would add 2^32 - 3000000000 + 2999999999 = 4294967295 bytes, which 12.5 GB/s allows; a
        // reset (or a dip that lasted) allows 0. The smallest motion is 0, and both steps are flagged:
        // the dip could have been a wrap, and the still second could hide one (2^32 bytes < 12.5e9).
        FakeSource src = new FakeSource(clock);
        for (long b : new long[] {3_000_000_000L, 2_999_999_999L, 2_999_999_999L}) {
            src.add(4, 0, b, 100 * GBIT);
        }
        NicCounters c = new NicCounters("eth0", src, clock);
        NicCounters.Snapshot base = c.read();
        clock.advance(997_000_000L);
        c.read();
        clock.advance(997_000_000L);
        NicCounters.Delta d = c.read().minus(base);
        assertThat(d.get(NicCounter.TX_BYTES)).isZero();
        assertThat(d.count(NicCounter.TX_BYTES, CounterEvent.RESET)).isEqualTo(1);
        assertThat(d.count(NicCounter.TX_BYTES, CounterEvent.POSSIBLE_WRAP)).isEqualTo(2);
        // rx_packets stayed at 0: 2^32 frames would take 100 Gbit/s 28.9 s, no wrap fits in 1 s
        assertThat(d.count(NicCounter.RX_PACKETS, CounterEvent.POSSIBLE_WRAP)).isZero();
        assertThat(d.clean()).isFalse();
        // rx_bytes, still at 0 in every reading, could as well have gone once round 2^32 each second
        String wraps = "2 possible 32-bit wraps (in doubt: the link could have carried 2^32 more; the smallest motion "
                + "is counted, the total may be low)";
        assertThat(d.notes()).containsExactly("rx_bytes: " + wraps,
                "tx_bytes: 1 reset (motion around a reset is not counted), " + wraps);
    }

    @Test
    void aClimbThatCouldHideAWholeWrapCountsTheClimbAndIsFlagged() throws Exception {
        // tx_bytes 1000 then 2000 on a 10 Gbit/s link: 1.25e9 bytes/s. 6 ms allow 7.5e6 bytes, no
        // wrap: +1000, clean. 10 s later, 3000: 1.25e10 bytes allow 1000 + 2^32; +1000 is counted and
        // flagged. A counter seen at 2^32 is 64 bits wide: 5000000000 then 5000001000 is clean.
        FakeSource src = new FakeSource(clock);
        for (long b : new long[] {1000, 2000, 3000, 5_000_000_000L, 5_000_001_000L}) {
            src.add(4, 0, b, 10 * GBIT);
        }
        NicCounters c = new NicCounters("eth0", src, clock);
        NicCounters.Snapshot base = c.read();
        NicCounters.Snapshot quick = c.read();
        assertThat(quick.minus(base).clean()).isTrue();
        // from here on, rx_bytes (still at 0) could hide a wrap as well; only tx_bytes is followed
        assertThat(quick.get(NicCounter.TX_BYTES)).isEqualTo(1000);
        clock.advance(10_000_000_000L);
        NicCounters.Snapshot slow = c.read();
        assertThat(slow.get(NicCounter.TX_BYTES)).isEqualTo(2000);
        assertThat(slow.minus(quick).count(NicCounter.TX_BYTES, CounterEvent.POSSIBLE_WRAP)).isEqualTo(1);
        NicCounters.Snapshot wide = c.read();
        clock.advance(10_000_000_000L);
        NicCounters.Snapshot wideSlow = c.read();
        assertThat(wideSlow.get(NicCounter.TX_BYTES)).isEqualTo(1000 + 1000 + (5_000_000_000L - 3000) + 1000);
        assertThat(wideSlow.minus(wide).count(NicCounter.TX_BYTES, CounterEvent.POSSIBLE_WRAP)).isZero();
        assertThat(wideSlow.count(NicCounter.TX_BYTES, CounterEvent.POSSIBLE_WRAP)).isEqualTo(1);
    }

    @Test
    void theSameStepOnACounterSeenAbove2To32IsAResetNotAWrap() throws Exception {
        // 4294967400 (above 2^32 = 4294967296), 4294967000, 200, 300: the counter is 64 bits wide,
        // so neither step back is a wrap. 4294967000 stays below 4294967400: reset, new base
        // 4294967000. 200 and then 300 stay below that: reset, new base 200; 300 adds 100.
        NicCounters c = new NicCounters("eth0",
                new FakeSource(clock).packets(GBIT, 4_294_967_400L, 4_294_967_000L, 200, 300), clock);
        NicCounters.Snapshot s = readN(c, 4);
        assertThat(rx(s)).isEqualTo(100);
        assertThat(rxEvents(s, CounterEvent.RESET)).isEqualTo(2);
        assertThat(rxEvents(s, CounterEvent.POSSIBLE_WRAP)).isZero();
    }

    @Test
    void aStepBackTheLinkCouldNotHaveCarriedThroughAWrapIsAReset() throws Exception {
        // A 64-bit counter at 3000000000 (below 2^32) resets to 0 on a 1 Gbit/s link: a wrap would be
        // 2^32 - 3000000000 = 1294967296 frames in 6 ms, where the link carries at most 8928.6
        NicCounters c = new NicCounters("eth0", new FakeSource(clock).packets(GBIT, 3_000_000_000L, 0, 10), clock);
        NicCounters.Snapshot s = readN(c, 3);
        assertThat(rx(s)).isEqualTo(10);
        assertThat(rxEvents(s, CounterEvent.RESET)).isEqualTo(1);
        assertThat(rxEvents(s, CounterEvent.POSSIBLE_WRAP)).isZero();
    }

    @Test
    void withTheLinkSpeedUnknownNoStepBackIsAWrap() throws Exception {
        // the values of the real wrap above, on a link of unknown speed: a wrap cannot be told from a
        // reset, and a reset (which adds nothing) is assumed and reported
        NicCounters c = new NicCounters("eth0", new FakeSource(clock).packets(0, 4_294_967_000L, 200, 200), clock);
        NicCounters.Snapshot s = readN(c, 3);
        assertThat(rx(s)).isZero();
        assertThat(rxEvents(s, CounterEvent.RESET)).isEqualTo(1);
        assertThat(rxEvents(s, CounterEvent.POSSIBLE_WRAP)).isZero();
    }

    @Test
    void aPossibleWrapKeepsCountingFromTheDip() throws Exception {
        // 4294967280, 4294967290 (+10), 5 (in doubt), 20: the dip stands, a reset adding nothing (a
        // wrap of 2^32 - 4294967290 + 5 = 11 fits too and is flagged), then 15 more: 10 + 15 = 25
        NicCounters c = new NicCounters("eth0",
                new FakeSource(clock).packets(GBIT, 4_294_967_280L, 4_294_967_290L, 5, 20), clock);
        c.read();
        assertThat(rx(c.read())).isEqualTo(10);
        NicCounters.Snapshot doubt = c.read();
        assertThat(rx(doubt)).isEqualTo(10);
        assertThat(doubt.inDoubt()).containsExactly(NicCounter.RX_PACKETS);
        NicCounters.Snapshot s = c.read();
        assertThat(rx(s)).isEqualTo(25);
        assertThat(rxEvents(s, CounterEvent.RESET)).isEqualTo(1);
        assertThat(rxEvents(s, CounterEvent.POSSIBLE_WRAP)).isEqualTo(1);
    }

    @Test
    void aResetKeepsCountingFromTheValueItRestartedAt() throws Exception {
        // 1000, 1200 (+200), 30, 60, 90: 30 never climbs back over 1200, so it is a reset; motion is
        // counted from 30: 200 + 30 + 30 = 260
        NicCounters c = new NicCounters("eth0", new FakeSource(clock).packets(0, 1000, 1200, 30, 60, 90), clock);
        NicCounters.Snapshot s = readN(c, 5);
        assertThat(rx(s)).isEqualTo(260);
        assertThat(rxEvents(s, CounterEvent.RESET)).isEqualTo(1);
        assertThat(rxEvents(s, CounterEvent.GLITCH)).isZero();
    }

    @Test
    void aResetToZeroAddsNothingAndIsReportedPerCounter() throws Exception {
        FakeSource src = new FakeSource(clock).add(4, 1_000, 64_000).add(4, 1_200, 76_800).add(4, 0, 0).add(4, 30, 1_920);
        NicCounters c = new NicCounters("eth0", src, clock);
        c.read();
        c.read();
        NicCounters.Snapshot afterReset = c.read();
        assertThat(afterReset.get(NicCounter.RX_PACKETS)).isEqualTo(200);
        assertThat(afterReset.inDoubt()).containsExactlyInAnyOrder(NicCounter.RX_PACKETS, NicCounter.TX_BYTES);
        NicCounters.Snapshot s = c.read();
        // 30 and 1920 stay below 1200 and 76800: both counters reset; 0 -> 30 and 0 -> 1920 count
        assertThat(s.get(NicCounter.RX_PACKETS)).isEqualTo(230);
        assertThat(s.get(NicCounter.TX_BYTES)).isEqualTo(12_800 + 1_920);
        assertThat(s.count(NicCounter.RX_PACKETS, CounterEvent.RESET)).isEqualTo(1);
        assertThat(s.count(NicCounter.TX_BYTES, CounterEvent.RESET)).isEqualTo(1);
        assertThat(s.count(NicCounter.RX_BYTES, CounterEvent.RESET)).isZero();
        assertThat(s.inDoubt()).isEmpty();
    }

    @Test
    void anAmbiguousDipIsAGlitchAndIsMarkedAmbiguousOnlyWhenTheLinkCouldHaveCarriedAResetAndTheClimb()
            throws Exception {
        // 1000, 0, 1500 on a 10 Mbit/s link: a glitch adds 500; a reset followed by traffic would
        // need 1500 frames between the samplings of 0 and 1500. The link carries at most
        // 10^7 / 672 frames/s; from the clock reading before the read of 0 (3001000 ns) to the one
        // after the read of 1500, 100.8 ms (6 ms of reads and 94.8 ms of waiting) allow
        // 10^7 x 0.1008 / 672 = 1500 frames exactly: the reset fits, the dip is ambiguous.
        // One nanosecond less allows 1499.99998 frames: the reset is ruled out, a plain glitch.
        for (long wait : new long[] {94_800_000L, 94_799_999L}) {
            ManualClock clk = new ManualClock(1_000);
            FakeSource src = new FakeSource(clk).packets(10_000_000L, 1000, 0, 1500);
            NicCounters c = new NicCounters("eth0", src, clk);
            c.read();
            c.read();
            clk.advance(wait);
            NicCounters.Snapshot s = c.read();
            assertThat(rx(s)).as("wait %d ns", wait).isEqualTo(500);
            assertThat(rxEvents(s, CounterEvent.GLITCH)).isEqualTo(1);
            assertThat(rxEvents(s, CounterEvent.AMBIGUOUS)).as("wait %d ns", wait).isEqualTo(wait == 94_800_000L ? 1 : 0);
            assertThat(rxEvents(s, CounterEvent.RESET)).isZero();
        }
    }

    @Test
    void aDipInTheFinalReadingIsDecidedByTheSettlingReadings() throws Exception {
        // 1000, 1100, then settled readings 0 and 1100: the 0 is a glitch, the total is 100
        NicCounters glitch = new NicCounters("eth0", new FakeSource(clock).packets(0, 1000, 1100, 0, 1100), clock);
        glitch.read();
        glitch.read();
        NicCounters.Snapshot g = glitch.readSettled(NO_PAUSE);
        assertThat(rx(g)).isEqualTo(100);
        assertThat(rxEvents(g, CounterEvent.GLITCH)).isEqualTo(1);
        assertThat(g.inDoubt()).isEmpty();
        // 1000, 1100, then 30 and 30: the dip stands, a reset; 30 -> 30 adds nothing
        NicCounters reset = new NicCounters("eth0", new FakeSource(clock).packets(0, 1000, 1100, 30, 30), clock);
        reset.read();
        reset.read();
        NicCounters.Snapshot r = reset.readSettled(NO_PAUSE);
        assertThat(rx(r)).isEqualTo(100);
        assertThat(rxEvents(r, CounterEvent.RESET)).isEqualTo(1);
        assertThat(r.inDoubt()).isEmpty();
    }

    @Test
    void aCounterStillInDoubtAfterTheSettlingReadingsIsNamedAndLeftOut() throws Exception {
        // 1000, 1100, then 500, 400, 300: each reading stays below the one before it, so each
        // resolves the previous dip as a reset and is itself a new dip; after the 2 further
        // readings 300 is still in doubt, and the total keeps 100
        NicCounters c = new NicCounters("eth0", new FakeSource(clock).packets(0, 1000, 1100, 500, 400, 300), clock);
        c.read();
        c.read();
        NicCounters.Snapshot s = c.readSettled(NO_PAUSE);
        assertThat(rx(s)).isEqualTo(100);
        assertThat(rxEvents(s, CounterEvent.RESET)).isEqualTo(2);
        assertThat(s.inDoubt()).containsExactly(NicCounter.RX_PACKETS);
        NicCounters.Delta d = s.minus(new NicCounters.Snapshot("eth0", 0, new long[8], new long[32], java.util.Set.of()));
        assertThat(d.clean()).isFalse();
        assertThat(d.notes()).containsExactly("rx_packets: 2 resets (motion around a reset is not counted), "
                + "in doubt (a reading below the one before it awaits the next; the low reading is left out)");
        assertThatThrownBy(() -> c.readSettled(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pause PT-0.001S is out of range; allowed: >= 0");
    }

    @Test
    void aReCreatedInterfaceIsDetectedByIfindexAndResetsEveryCounter() throws Exception {
        FakeSource src = new FakeSource(clock).add(4, 10).add(4, 70).add(9, 900).add(9, 905);
        NicCounters c = new NicCounters("eth0", src, clock);
        NicCounters.Snapshot first = c.read();
        c.read();
        NicCounters.Snapshot recreated = c.read();
        assertThat(recreated.get(NicCounter.RX_PACKETS)).isEqualTo(60);
        for (NicCounter k : NicCounter.values()) {
            assertThat(recreated.count(k, CounterEvent.RESET)).as(k.file()).isEqualTo(1);
        }
        assertThat(c.read().get(NicCounter.RX_PACKETS)).isEqualTo(65);
        assertThat(recreated.minus(first).count(CounterEvent.RESET)).isEqualTo(8);
    }

    @Test
    void deltasCarryTheEventsOfTheirSpanAndNameThem() throws Exception {
        // baseline after 1000; then 999 (glitch, speed unknown so ambiguous), 1001, and tx_bytes
        // 5000 -> 10 -> 20 (a reset)
        FakeSource src = new FakeSource(clock).add(4, 1000, 5000).add(4, 999, 10).add(4, 1001, 20);
        NicCounters c = new NicCounters("eth0", src, clock);
        NicCounters.Snapshot base = c.read();
        c.read();
        NicCounters.Delta d = c.read().minus(base);
        assertThat(d.get(NicCounter.RX_PACKETS)).isEqualTo(1);
        assertThat(d.get(NicCounter.TX_BYTES)).isEqualTo(10);
        assertThat(d.count(CounterEvent.GLITCH)).isEqualTo(1);
        assertThat(d.count(CounterEvent.RESET)).isEqualTo(1);
        assertThat(d.clean()).isFalse();
        assertThat(d.notes()).containsExactly(
                "rx_packets: 1 glitch (1 ambiguous: a reset followed by traffic fits too; counted as a glitch, "
                        + "the total may be low)",
                "tx_bytes: 1 reset (motion around a reset is not counted)");
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
        // no device behind it (a virtual interface): the speed file bounds nothing
        Files.writeString(root.resolve("lrt0").resolve("speed"), "10000\n");
        assertThat(raw.linkBitsPerSecond()).isZero();
        assertThat(CounterSource.sysfs(root, "lrt0").read().linkBitsPerSecond()).isZero();
        // a device: speed in Mbit/s; -1 (unknown) and an unreadable file are unknown
        Files.createDirectories(root.resolve("lrt0").resolve("device"));
        assertThat(CounterSource.sysfs(root, "lrt0").read().linkBitsPerSecond()).isEqualTo(10_000_000_000L);
        Files.writeString(root.resolve("lrt0").resolve("speed"), "-1\n");
        assertThat(CounterSource.sysfs(root, "lrt0").read().linkBitsPerSecond()).isZero();
        Files.delete(root.resolve("lrt0").resolve("speed"));
        Files.createDirectories(root.resolve("lrt0").resolve("speed"));
        assertThat(CounterSource.sysfs(root, "lrt0").read().linkBitsPerSecond()).isZero();
    }
}
