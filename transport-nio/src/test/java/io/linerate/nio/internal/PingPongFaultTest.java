package io.linerate.nio.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.RunFacts;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A server that stops answering ends the run within the timeout, in every waiting mode, with an
 * error that says how many round trips completed; a lost UDP ping is a timeout, not a hang.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PingPongFaultTest {
    static final RunFacts FACTS = new RunFacts("test", "d", "u", "c", "j", "o");

    static PingPongSpec spec(PingPongProtocol p, Muxer m) {
        // the floors ask for far more round trips than the server will answer
        return PingPongSpec.builder().protocol(p).sizes(List.of(32)).clientMuxer(m).serverMuxer(m)
                .policy(new IterationPolicy(Duration.ofSeconds(30), Duration.ofSeconds(30), 1_000_000, 1_000_000,
                        Duration.ZERO, 0))
                .timeout(Duration.ofSeconds(1)).build();
    }

    @ParameterizedTest
    @EnumSource(Muxer.class)
    void aUdpServerThatStopsAnsweringIsATimeoutNamingTheRoundTripsCompleted(Muxer m) {
        assertThatThrownBy(() -> PingPongRunner.run(spec(PingPongProtocol.UDP, m), Clock.system(), FACTS, 50))
                .isInstanceOf(TransferException.class)
                .hasMessage("udp ping-pong of 32-byte messages ended: no answer within the timeout of 1000 ms "
                        + "(counted as 1 timeout: a lost datagram or a server that stopped answering); "
                        + "50 round trips completed")
                .satisfies(e -> assertThat(((TransferException) e).isUsageError()).isFalse());
    }

    @ParameterizedTest
    @EnumSource(Muxer.class)
    void aTcpServerThatStopsAnsweringIsATimeout(Muxer m) {
        // a stream may deliver one message in parts, each echoed as an answer: at most 50 round trips
        assertThatThrownBy(() -> PingPongRunner.run(spec(PingPongProtocol.TCP, m), Clock.system(), FACTS, 50))
                .isInstanceOf(TransferException.class)
                .hasMessageStartingWith("tcp ping-pong of 32-byte messages ended: no answer within the timeout of 1000 ms "
                        + "(counted as 1 timeout: a server that stopped answering); ")
                .hasMessageMatching(".*; (50|[1-4][0-9]|[0-9]) round trips completed");
    }
}
