package io.linerate.core.spi.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A receiving end of a remote stream gives up on a silent path after its I/O timeout, not at its window's end. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SilenceTest {
    private static TransferSpec spec(Protocol p, long rate, Duration io) {
        return TransferSpec.builder().protocol(p).payloadBytes(1250).rateBitsPerSecond(rate)
                .duration(Duration.ofSeconds(60)).warmup(Duration.ZERO).interval(Duration.ofMillis(50))
                .ioTimeout(io).endpoint(Endpoint.remote("198.18.0.2", 7001)).build();
    }

    @Test
    void theLimitIsTheIoTimeoutPlusOneMessagesTimeAtTheRate() {
        // 1250 B = 10,000 bits; at 1 Mbit/s one message every 10 ms
        Silence paced = new Silence(spec(Protocol.UDP, 1_000_000, Duration.ofSeconds(2)));
        Silence unlimited = new Silence(spec(Protocol.UDP, 0, Duration.ofSeconds(2)));

        assertThat(paced.limitNanos()).isEqualTo(2_000_000_000L + 10_000_000L);
        assertThat(unlimited.limitNanos()).isEqualTo(2_000_000_000L);
    }

    @Test
    void silenceCountsFromTheStartUntilTheFirstDataThenFromTheLast() {
        Silence s = new Silence(spec(Protocol.TCP, 0, Duration.ofMillis(100)));
        long start = 1_000;
        long limit = 100_000_000L;

        assertThat(s.over(start, Long.MIN_VALUE, start + limit)).isFalse();
        assertThat(s.over(start, Long.MIN_VALUE, start + limit + 1)).isTrue();
        long last = start + 5 * limit;
        assertThat(s.over(start, last, last + limit)).isFalse();
        assertThat(s.over(start, last, last + limit + 1)).isTrue();
    }

    @Test
    void aReceiverThatHearsNothingMoreFailsWithWhatItCountedBeforeItsWindowEnds() {
        for (Protocol p : new Protocol[] {Protocol.TCP, Protocol.UDP}) {
            // three reads of 100 bytes, then a silent path: the loop runs on until it is stopped
            StreamEnd end = StreamEnd.receiver(spec(p, 0, Duration.ofMillis(300)), Clock.system(), ctx -> {
                for (int i = 0; i < 3; i++) {
                    ctx.received(100);
                }
                while (!ctx.stopRequested()) {
                    LockSupport.parkNanos(1_000_000L);
                }
            });

            assertThatThrownBy(() -> end.run(sample -> { }, () -> -1))
                    .isInstanceOf(TransferException.class)
                    .hasMessageContaining("heard nothing for the I/O timeout of 300 ms after 300 bytes")
                    .hasMessageContaining("silent");
            assertThat(end.bytesSoFar()).isEqualTo(300);
        }
    }
}
