package io.linerate.core.spi.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.live.LiveCounters;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An end of a ten-minute stream stopped on its first window interval, by an interrupt of the thread
 * that runs it or by {@link StreamEnd#interrupt()}: it returns what it counted, marked
 * interrupted, its window as long as it ran and its window samples adding up to its window bytes.
 * Without the stop the test would run into its timeout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamEndInterruptTest {
    private static final int CHUNK = 1000;
    private static final Duration LONG = Duration.ofMinutes(10);

    @TempDir
    Path dir;

    @BeforeEach
    void useTempDir() {
        LiveCounters.process().directory(dir);
    }

    @AfterEach
    void restore() {
        LiveCounters.process().directory(null);
    }

    private static TransferSpec spec() {
        return TransferSpec.builder().protocol(Protocol.TCP).payloadBytes(CHUNK).duration(LONG).warmup(Duration.ZERO)
                .interval(Duration.ofMillis(100)).ioTimeout(Duration.ofSeconds(2))
                .endpoint(Endpoint.remote("198.18.0.2", 7001)).build();
    }

    private static void assertCutShort(EndCounters c, List<IntervalSample> samples, long moved) {
        assertThat(c.interrupted()).isTrue();
        assertThat(c.bytes()).isEqualTo(moved).isPositive();
        assertThat(c.windowBytes()).isPositive().isLessThanOrEqualTo(c.bytes());
        assertThat(c.windowNanos()).isPositive().isLessThan(LONG.toNanos());
        assertThat(samples.stream().filter(x -> !x.omitted()).mapToLong(IntervalSample::bytes).sum())
                .isEqualTo(c.windowBytes());
    }

    @Test
    void anInterruptedReceiverReturnsWhatArrivedUntilTheEndOfTheStream() throws Exception {
        AtomicLong delivered = new AtomicLong();
        AtomicBoolean peerStopped = new AtomicBoolean();
        StreamEnd end = StreamEnd.receiver(spec(), Clock.system(), ctx -> {
            while (!ctx.stopRequested() && !peerStopped.get()) {
                ctx.received(CHUNK);
                delivered.addAndGet(CHUNK);
                LockSupport.parkNanos(100_000L);
            }
            ctx.endOfStream(); // the peer's sender stopped on its own interrupt, and ended its stream
        });
        Thread runner = Thread.currentThread();
        List<IntervalSample> samples = new ArrayList<>();
        EndCounters c = end.run(s -> {
            if (samples.isEmpty()) {
                runner.interrupt();
                peerStopped.set(true);
            }
            samples.add(s);
        }, () -> -1);

        assertThat(Thread.interrupted()).as("the end took the interrupt").isFalse();
        assertThat(c.sender()).isFalse();
        assertCutShort(c, samples, delivered.get());
    }

    @Test
    void aSenderStoppedFromAnotherThreadReturnsWhatItSent() throws Exception {
        AtomicLong written = new AtomicLong();
        StreamEnd[] end = new StreamEnd[1];
        end[0] = StreamEnd.sender(spec(), Clock.system(), ctx -> {
            while (!ctx.stopRequested()) {
                int n = ctx.nextMessageBytes(); // takes up the window once it opened
                ctx.sent(n, true);
                written.addAndGet(n);
                LockSupport.parkNanos(100_000L);
            }
        });
        List<IntervalSample> samples = new ArrayList<>();
        EndCounters c = end[0].run(s -> {
            samples.add(s);
            end[0].interrupt();
        }, () -> -1);

        assertThat(c.sender()).isTrue();
        assertCutShort(c, samples, written.get());
    }
}
