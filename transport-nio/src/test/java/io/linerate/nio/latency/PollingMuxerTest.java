package io.linerate.nio.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Idle;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.nio.internal.PingPongRunner;
import io.linerate.nio.internal.RrFlow;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The polling muxers, spin and backoff, wait through each Agrona idle strategy: ping-pong and
 * request/response complete their round trips, and a peer that stops answering still ends every
 * wait at the timeout.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PollingMuxerTest {
    static final RunFacts FACTS = new RunFacts("test", "d", "u", "c", "j", "o");

    static Stream<Arguments> pollingEnds() {
        return Stream.of(PingPongProtocol.UDP, PingPongProtocol.TCP)
                .flatMap(p -> Stream.of(Arguments.of(p, Muxer.BACKOFF, null), Arguments.of(p, Muxer.SPIN, Idle.YIELD),
                        Arguments.of(p, Muxer.SPIN, Idle.SLEEP), Arguments.of(p, Muxer.BACKOFF, Idle.BUSY)));
    }

    @ParameterizedTest(name = "{0} {1} idle {2}")
    @MethodSource("pollingEnds")
    void pingPongCompletesExactlyTheRoundTripsAsked(PingPongProtocol p, Muxer m, Idle idle) throws Exception {
        // floor = cap = 300 measured round trips after 100 warm-up ones, two sizes
        PingPongSpec spec = PingPongSpec.builder().protocol(p).sizes(List.of(8, 64)).clientMuxer(m).serverMuxer(m)
                .idle(idle).policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(30), 300, 300, Duration.ZERO, 100))
                .timeout(Duration.ofSeconds(5)).build();
        PingPongResult r = PingPong.run(spec, Clock.system(), FACTS);
        assertThat(r.sizes()).extracting(PingPongResult.SizeCounts::measured).containsExactly(300L, 300L);
        assertThat(r.roundTrips()).isEqualTo(2 * (300 + 100));
        assertThat(r.report().sizes()).allSatisfy(s -> assertThat(s.roundTrips().count()).isEqualTo(300));
    }

    @Test
    void theIdleStrategyIsTheMuxersUnlessOneIsGiven() {
        PingPongSpec spin = PingPongSpec.builder().clientMuxer(Muxer.SPIN).serverMuxer(Muxer.BLOCKING).build();
        assertThat(spin.idleOf(Muxer.SPIN)).contains(Idle.BUSY);
        assertThat(spin.idleOf(Muxer.BACKOFF)).contains(Idle.BACKOFF);
        assertThat(spin.idleOf(Muxer.BLOCKING)).isEmpty();
        PingPongSpec sleep = PingPongSpec.builder().clientMuxer(Muxer.SPIN).serverMuxer(Muxer.SELECTOR)
                .idle(Idle.SLEEP).build();
        assertThat(sleep.idleOf(Muxer.SPIN)).contains(Idle.SLEEP);
        assertThat(sleep.idleOf(Muxer.BACKOFF)).contains(Idle.SLEEP);
        assertThat(sleep.idleOf(Muxer.SELECTOR)).isEmpty();
        assertThat(Muxer.parse("BACKOFF")).isEqualTo(Muxer.BACKOFF);
    }

    @Test
    void anIdleStrategyWithoutAPollingEndIsRefused() {
        assertThatThrownBy(() -> PingPongSpec.builder().clientMuxer(Muxer.SELECTOR).serverMuxer(Muxer.BLOCKING)
                .idle(Idle.YIELD).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("idle strategy yield applies to the polling muxers spin and backoff only; the client waits "
                        + "with selector and the server with blocking");
        assertThatThrownBy(() -> rr(Muxer.SELECTOR, Idle.BUSY))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("idle strategy busy applies to the polling muxers spin and backoff only, not selector");
        assertThatThrownBy(() -> rr(Muxer.BLOCKING, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("muxer blocking is not available for request/response: one server thread serves every "
                        + "connection; allowed: selector, spin, backoff");
    }

    @ParameterizedTest
    @EnumSource(Idle.class)
    void aSilentUdpServerEndsAPollingClientsWaitAtTheTimeout(Idle idle) {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UDP).sizes(List.of(32))
                .clientMuxer(Muxer.SPIN).serverMuxer(Muxer.SPIN).idle(idle)
                .policy(new IterationPolicy(Duration.ofSeconds(30), Duration.ofSeconds(30), 1_000_000, 1_000_000,
                        Duration.ZERO, 0))
                .timeout(Duration.ofMillis(500)).build();
        // the server answers 20 pings, then reads on without answering
        assertThatThrownBy(() -> PingPongRunner.run(spec, Clock.system(), FACTS, 20))
                .isInstanceOf(TransferException.class)
                .hasMessage("udp ping-pong of 32-byte messages ended: no answer within the timeout of 500 ms "
                        + "(counted as 1 timeout: a lost datagram or a server that stopped answering); "
                        + "20 round trips completed");
    }

    static RrSpec rr(Muxer m, Idle idle) {
        return RrSpec.builder().family(AddressFamily.IPV4).flows(2).requestBytes(32).responseBytes(100)
                .duration(Duration.ofMillis(300)).warmup(Duration.ofMillis(100)).timeout(Duration.ofSeconds(5))
                .muxer(m).idle(idle).build();
    }

    static Stream<Arguments> rrModes() {
        return Stream.of(Arguments.of(Muxer.SPIN, null), Arguments.of(Muxer.BACKOFF, null),
                Arguments.of(Muxer.SPIN, Idle.SLEEP), Arguments.of(Muxer.BACKOFF, Idle.YIELD));
    }

    @ParameterizedTest(name = "{0} idle {1}")
    @MethodSource("rrModes")
    void requestResponseCompletesTransactionsOnPollingFlowsAndServer(Muxer m, Idle idle) throws Exception {
        RrResult r = RequestResponse.run(rr(m, idle), Clock.system(), FACTS);
        assertThat(r.report().transactions()).isPositive();
        assertThat(r.report().latency().count()).isEqualTo(r.report().transactions());
        // one connection per flow; a response for every completed transaction, at most one more per flow
        assertThat(r.accepts()).isEqualTo(2);
        assertThat(r.served()).isBetween(r.completed(), r.completed() + 2);
    }

    @ParameterizedTest
    @EnumSource(value = Muxer.class, names = {"SPIN", "BACKOFF"})
    void aSilentRrServerEndsAPollingFlowAtTheTimeout(Muxer m) throws Exception {
        // the kernel completes the handshake from the backlog; nobody ever reads or answers
        try (ServerSocketChannel silent = ServerSocketChannel.open()) {
            silent.bind(new InetSocketAddress("127.0.0.1", 0), 16);
            RrSpec spec = RrSpec.builder().family(AddressFamily.IPV4).flows(1).requestBytes(16).responseBytes(16)
                    .duration(Duration.ofSeconds(10)).warmup(Duration.ZERO).timeout(Duration.ofMillis(300)).muxer(m)
                    .build();
            RrFlow f = new RrFlow(0, spec, silent.getLocalAddress(), Clock.system(), 0);
            f.start();
            // bounded: the flow ends by itself 300 ms into its first transaction
            assertThat(f.awaitEnd(10_000)).isTrue();
            f.close();
            assertThat(f.completed()).isZero();
            assertThat(f.failure()).hasMessage("flow 0 could not receive a response within the timeout of 300 ms "
                    + "after 0 transactions");
        }
    }
}
