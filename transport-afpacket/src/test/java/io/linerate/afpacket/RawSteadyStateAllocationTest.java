package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.Clock;
import io.linerate.testsupport.VethPair;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The per-frame send and receive loops allocate nothing once warmed up: between two interval
 * samples late in the run, 0.5 s apart, about 20 000 frames pass, so an allocation per frame or per
 * batch would add at least 16 bytes × 600 batches. The bound of 1 KiB allows for the JVM's own
 * occasional bookkeeping on those threads (a single 232-byte allocation per run has been seen on
 * the receiving thread, in a plain read of a block status word), not for anything that grows with
 * traffic. Each idle mode runs in both loops across the cases (the receiver idles between blocks;
 * none of the default is given as "default").
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RawSteadyStateAllocationTest {

    @ParameterizedTest
    @CsvSource({"false, default", "true, default", "true, busy", "false, yield", "false, backoff", "true, sleep"})
    void sendAndReceiveLoopsAllocateNothingAfterWarmup(boolean txRing, String idle) throws Exception {
        assumeTrue(AfPacket.isAvailable(), () -> "AF_PACKET unavailable: " + AfPacket.unavailabilityCause().orElse(""));
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled(), "no per-thread allocation counter");
        try (VethPair v = VethPair.create()) {
            List<long[]> samples = new ArrayList<>();
            RawTransferSpec spec = RawTransferSpec.builder(v.a, v.b).etherTypes(List.of(0x88b5, 0x88b6)).frameSize(128)
                    .rateBitsPerSecond(40_000L * 128 * 8).batch(32).txRing(txRing)
                    .idle(idle.equals("default") ? null : io.linerate.core.Idle.parse(idle))
                    .warmup(Duration.ofMillis(1000)).duration(Duration.ofMillis(2000)).interval(Duration.ofMillis(250))
                    .hardwareTimestamps(false).build();
            RawResult r = RawTransfer.run(spec, Clock.system(), i -> {
                long tx = -1;
                long rx = -1;
                // Enumerate without taking stack traces: a stack walk may run on (and allocate in) the target thread.
                ThreadGroup root = Thread.currentThread().getThreadGroup();
                while (root.getParent() != null) {
                    root = root.getParent();
                }
                Thread[] all = new Thread[root.activeCount() + 16];
                int n = root.enumerate(all, true);
                for (int k = 0; k < n; k++) {
                    Thread t = all[k];
                    if (t.getName().equals("linerate-afpacket-tx")) {
                        tx = mx.getThreadAllocatedBytes(t.getId());
                    } else if (t.getName().equals("linerate-afpacket-rx")) {
                        rx = mx.getThreadAllocatedBytes(t.getId());
                    }
                }
                samples.add(new long[] {tx, rx});
            });
            assertThat(r.valid()).as("reasons: %s", r.reasons()).isTrue();
            // Samples 8 and 10 end 2.25 s and 2.75 s into the run, well after the warm-up ended at 1 s and
            // every path of both loops (warm-up and measured frames) has run: both are in their steady loops.
            assertThat(samples.size()).isGreaterThanOrEqualTo(11);
            long[] a = samples.get(8);
            long[] b = samples.get(10);
            // both threads were found alive (-1 otherwise); a loop whose set-up the JIT scalar-replaced
            // may have allocated nothing at all
            assertThat(a[0]).isNotNegative();
            assertThat(a[1]).isNotNegative();
            assertThat(b[0]).isNotNegative();
            assertThat(b[1]).isNotNegative();
            assertThat(b[0] - a[0]).as("sender bytes allocated").isLessThan(1024);
            assertThat(b[1] - a[1]).as("receiver bytes allocated").isLessThan(1024);
        }
    }
}
