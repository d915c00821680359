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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A TCP receiving end whose peer starts sending a while after the end was run (a slow peer host, or
 * a caller that opened the stream and ran it later): its window starts with the data, so the data
 * lands in it. Before, the window of 300 ms had closed, empty, long before the first byte.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StreamEndLateSenderTest {
    /** The peer's late start: longer than the window, so a window started at run time holds nothing. */
    private static final long LATE_NANOS = 1_000_000_000L;
    /** How long the peer then sends, by its own clock: past the window. */
    private static final long SENDING_NANOS = 600_000_000L;
    private static final int CHUNK = 1000;

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

    @Test
    void aSenderThatStartsLateLandsInTheReceiversWindow() throws Exception {
        TransferSpec s = TransferSpec.builder().protocol(Protocol.TCP).payloadBytes(CHUNK)
                .duration(Duration.ofMillis(300)).warmup(Duration.ZERO).interval(Duration.ofMillis(100))
                .ioTimeout(Duration.ofSeconds(10)).endpoint(Endpoint.remote("198.18.0.2", 7001)).build();
        AtomicLong delivered = new AtomicLong();
        StreamEnd end = StreamEnd.receiver(s, Clock.system(), ctx -> {
            // the late start is this test's input, not a wait for a condition
            LockSupport.parkNanos(LATE_NANOS);
            long until = System.nanoTime() + SENDING_NANOS;
            while (System.nanoTime() < until && !ctx.stopRequested()) {
                ctx.received(CHUNK);
                delivered.addAndGet(CHUNK);
                LockSupport.parkNanos(100_000L);
            }
            ctx.endOfStream();
        });
        List<IntervalSample> samples = new ArrayList<>();
        EndCounters c = end.run(samples::add, () -> -1);

        assertThat(c.sender()).isFalse();
        assertThat(c.bytes()).isEqualTo(delivered.get()).isPositive();
        assertThat(c.windowBytes()).as("bytes in the window").isPositive().isLessThanOrEqualTo(c.bytes());
        // the window's intervals add up to its bytes
        assertThat(samples.stream().filter(x -> !x.omitted()).mapToLong(IntervalSample::bytes).sum())
                .isEqualTo(c.windowBytes());
    }
}
