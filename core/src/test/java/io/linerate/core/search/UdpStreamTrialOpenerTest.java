package io.linerate.core.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.UdpStats;
import io.linerate.core.latency.ExactRangeHistogram;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link UdpStreamTrial} with an {@link UdpStreamTrial.Opener} of the caller's, as a search through a peer agent uses. */
class UdpStreamTrialOpenerTest {
    private static final TransferSpec BASE = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(1400)
            .endpoint(Endpoint.remote("198.18.0.2", 7001)).build();
    private static final SearchSpec SEARCH = SearchSpec.builder().trial(Duration.ofSeconds(2))
            .warmup(Duration.ofMillis(250)).build();

    /** A transfer that returns a fixed result for its spec: 1000 datagrams of 1400 B sent in a 1 s window, 990 received. */
    private static Transfer fixed(TransferSpec spec, AtomicInteger closed) {
        return new Transfer() {
            @Override
            public TransferSpec spec() {
                return spec;
            }

            @Override
            public TransferResult run(IntervalListener listener) {
                return TransferResult.builder(spec).bytesSent(1000 * 1400L).messagesSent(1000)
                        .bytesReceived(990 * 1400L).window(0, 1_000_000_000L).windowBytesSent(1000 * 1400L)
                        .windowBytesReceived(990 * 1400L)
                        .udp(new UdpStats(1000, 990, 10, 0, 0, OptionalDouble.empty(),
                                new ExactRangeHistogram(1, 60_000_000_000L, 3)))
                        .options(new AppliedOptions(0, 0, 0, 212_992, 0, 212_992, false, false))
                        .build();
            }

            @Override
            public void close() {
                closed.incrementAndGet();
            }
        };
    }

    @Test
    void eachTrialOpensItsSpecThroughTheOpenerAndCountsWhatItsTransferReports() throws TransferException {
        List<TransferSpec> opened = new ArrayList<>();
        AtomicInteger closed = new AtomicInteger();
        UdpStreamTrial trial = new UdpStreamTrial(BASE, SEARCH, spec -> {
            opened.add(spec);
            return fixed(spec, closed);
        });

        TrialOutcome o = trial.run(150_000_000L);

        assertThat(opened).hasSize(1);
        TransferSpec spec = opened.get(0);
        // the trial's rate, length (2 s = 2e9 ns), warm-up and the search's default interval (a tenth of the trial)
        assertThat(spec.rateBitsPerSecond()).isEqualTo(150_000_000L);
        assertThat(spec.bound().amount()).isEqualTo(2_000_000_000L);
        assertThat(spec.warmup()).isEqualTo(Duration.ofMillis(250));
        assertThat(spec.interval()).isEqualTo(Duration.ofMillis(200));
        assertThat(spec.endpoint()).isEqualTo(BASE.endpoint());
        assertThat(closed.get()).isEqualTo(1);
        // 1000 × 1400 B × 8 bit in 1 s = 11 200 000 bit/s sent; 10 of 1000 lost
        assertThat(o.offeredBitsPerSecond()).isEqualTo(150_000_000L);
        assertThat(o.achievedBitsPerSecond()).isEqualTo(11_200_000.0);
        assertThat(o.sent()).isEqualTo(1000);
        assertThat(o.received()).isEqualTo(990);
        assertThat(o.lost()).isEqualTo(10);
        // 1400 B × 8 = 11 200 bit per datagram
        assertThat(trial.messageBits()).isEqualTo(11_200);
    }

    @Test
    void whatTheOpenerThrowsIsTheTrialsFailure() {
        UdpStreamTrial trial = new UdpStreamTrial(BASE, SEARCH, spec -> {
            throw new TransferException("the agent refused", null);
        });
        assertThatThrownBy(() -> trial.run(1_000_000L)).isInstanceOf(TransferException.class)
                .hasMessage("the agent refused");
    }

    @Test
    void aTcpBaseIsRefusedWhateverOpensIt() {
        TransferSpec tcp = BASE.toBuilder().protocol(Protocol.TCP).build();
        assertThatThrownBy(() -> new UdpStreamTrial(tcp, SEARCH, spec -> null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs UDP, which counts loss; got tcp");
    }
}
