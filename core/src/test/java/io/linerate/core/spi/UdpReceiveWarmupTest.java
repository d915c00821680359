package io.linerate.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class UdpReceiveWarmupTest {
    @Test
    void movesAtLeastTheDatagramsAskedForOverLoopback() {
        // bursts of 16 until 2000 have been read: the last drain reads whatever the socket still holds
        assertThat(UdpReceiveWarmup.run(2000, Duration.ofSeconds(60))).isGreaterThanOrEqualTo(2000L);
    }

    @Test
    void anExpiredBoundMovesNothing() {
        assertThat(UdpReceiveWarmup.run(2000, Duration.ZERO)).isZero();
    }

    @Test
    void runsOncePerJvm() {
        UdpReceiveWarmup.once(Duration.ofSeconds(60)); // the first call here, or a no-op after another test's
        assertThat(UdpReceiveWarmup.once(Duration.ofSeconds(60))).isZero();
    }
}
