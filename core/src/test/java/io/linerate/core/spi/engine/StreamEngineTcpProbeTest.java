package io.linerate.core.spi.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.TcpIntervalSample;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A transport's {@link TcpProbe} through the engine, with in-memory loops and a probe that gives
 * known figures at each call: every interval holds the change between the probe's readings at its
 * two ends, so the window's intervals add up to the change between its opening and closing readings.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class StreamEngineTcpProbeTest {
    private static final AppliedOptions OPTIONS = new AppliedOptions(0, 0, 0, 1000, 0, 1000, false, false);
    private static final long END = -1;

    /** The k-th call (from 0) reads k·(k+1)/2 retransmits in total, so each interval's count differs; -1 when told to fail. */
    private static final class CountingProbe implements TcpProbe {
        final List<Long> totals = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        private final IntPredicate fails;

        CountingProbe(IntPredicate fails) {
            this.fails = fails;
        }

        @Override
        public boolean read(TcpFigures into) {
            int k = totals.size();
            threads.add(Thread.currentThread());
            if (fails.test(k)) {
                totals.add(-1L);
                return false;
            }
            long total = (long) k * (k + 1) / 2;
            totals.add(total);
            into.set(total, 1448L * (10 + k), 100 + k, 50 + k, k == 0 ? -1 : 1_000_000L * k, 2_000_000L * k);
            return true;
        }
    }

    private static TransferSpec spec() {
        return TransferSpec.builder().protocol(Protocol.TCP).payloadBytes(1000).rateBitsPerSecond(8_000_000)
                .warmup(Duration.ofMillis(100)).bound(Bound.duration(Duration.ofMillis(250)))
                .interval(Duration.ofMillis(50)).ioTimeout(Duration.ofSeconds(5)).build();
    }

    private static StreamEngine engine(TcpProbe probe) {
        BlockingQueue<Long> pipe = new ArrayBlockingQueue<>(4096);
        return new StreamEngine(spec(), Clock.system(), ctx -> {
            int n;
            while ((n = ctx.nextMessageBytes()) > 0 && ctx.pace()) {
                put(pipe, n);
                ctx.sent(n, true);
            }
            put(pipe, END);
        }, ctx -> {
            long n;
            while ((n = take(pipe)) != END) {
                ctx.received((int) n);
            }
            ctx.endOfStream();
        }, probe);
    }

    @Test
    void eachIntervalHoldsTheChangeBetweenTheProbesReadingsAtItsEnds() throws Exception {
        CountingProbe probe = new CountingProbe(k -> false);
        List<IntervalSample> seen = new ArrayList<>();
        TransferResult r = engine(probe).run(OPTIONS, seen::add);
        List<IntervalSample> samples = r.intervals();
        assertThat(seen).isEqualTo(samples);
        // one reading at the start, then one per interval
        assertThat(probe.totals).hasSize(samples.size() + 1);
        assertThat(probe.threads).as("read on the measuring thread").containsOnly(Thread.currentThread());
        for (int i = 0; i < samples.size(); i++) {
            int k = i + 1; // the reading that ends interval i is the probe's call k
            TcpIntervalSample t = samples.get(i).tcp().orElseThrow();
            // k(k+1)/2 - (k-1)k/2 = k
            assertThat(t.retransmits()).as("interval %d", i).isEqualTo(k);
            assertThat(t.cwndBytes()).isEqualTo(1448L * (10 + k));
            assertThat(t.rttMicros()).isEqualTo(100 + k);
            assertThat(t.rttVarMicros()).isEqualTo(50 + k);
            assertThat(t.pacingRate()).isEqualTo(1_000_000L * k);
            assertThat(t.deliveryRate()).isEqualTo(2_000_000L * k);
        }
        // the window's intervals: from the reading that opened it (the last warm-up interval's end) to the closing one
        int opening = (int) samples.stream().filter(IntervalSample::omitted).count();
        long window = samples.stream().filter(s -> !s.omitted()).mapToLong(s -> s.tcp().orElseThrow().retransmits()).sum();
        assertThat(opening).isPositive();
        assertThat(window).isEqualTo(probe.totals.get(samples.size()) - probe.totals.get(opening));
        long all = samples.stream().mapToLong(s -> s.tcp().orElseThrow().retransmits()).sum();
        assertThat(all).isEqualTo(probe.totals.get(samples.size()) - probe.totals.get(0));
    }

    @Test
    void aFailedReadingLeavesBothIntervalsItBoundsWithoutFigures() throws Exception {
        CountingProbe probe = new CountingProbe(k -> k == 2);
        List<IntervalSample> samples = engine(probe).run(OPTIONS, s -> { }).intervals();
        assertThat(samples.size()).isGreaterThanOrEqualTo(3);
        // reading 2 ends interval 1 and starts interval 2
        assertThat(samples.get(0).tcp()).map(TcpIntervalSample::retransmits).contains(1L);
        assertThat(samples.get(1).tcp()).isEmpty();
        assertThat(samples.get(2).tcp()).isEmpty();
        if (samples.size() > 3) {
            // 4·5/2 - 3·4/2 = 4
            assertThat(samples.get(3).tcp()).map(TcpIntervalSample::retransmits).contains(4L);
        }
    }

    @Test
    void withoutAProbeNoIntervalHasFigures() throws Exception {
        List<IntervalSample> samples = engine(null).run(OPTIONS, s -> { }).intervals();
        assertThat(samples).isNotEmpty();
        assertThat(samples).extracting(IntervalSample::tcp).containsOnly(Optional.empty());
    }

    private static void put(BlockingQueue<Long> q, long v) throws IOException {
        try {
            if (!q.offer(v, 5, TimeUnit.SECONDS)) {
                throw new IOException("queue full");
            }
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }

    private static long take(BlockingQueue<Long> q) throws IOException {
        try {
            Long v = q.poll(5, TimeUnit.SECONDS);
            if (v == null) {
                throw new IOException("queue empty");
            }
            return v;
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }
}
