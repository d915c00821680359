package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Endpoint;
import io.linerate.core.Protocol;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.agent.internal.wire.HostClock;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** A remote stream's metrics exist only for a valid run, as a local one's do. */
class RemoteStreamResultTest {
    private static final TransferSpec SPEC = TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4)
            .duration(Duration.ofSeconds(1)).warmup(Duration.ZERO).endpoint(Endpoint.remote("127.0.0.1", 7001)).build();

    /** 1 s window; the sender sent 125 000 bytes, the receiver counted {@code received}. */
    private static RemoteStreamResult result(long received, List<String> reasons) {
        EndCounters tx = new EndCounters(true, 125_000, 10, 0, 1_000_000_000L, 125_000, 10, 0, 0, 0,
                OptionalDouble.empty(), 1_000_000, List.of());
        EndCounters rx = new EndCounters(false, received, 0, 0, 1_000_000_000L, received, 0, 0, 0, 0,
                OptionalDouble.empty(), 1_000_000, List.of());
        TransferResult t = TransferResult.builder(SPEC).bytesSent(125_000).bytesReceived(received)
                .window(0, 1_000_000_000L).windowBytesSent(125_000).windowBytesReceived(received)
                .options(new io.linerate.core.AppliedOptions(0, 0, 0, 0, 0, 0, false, false)).invalidReasons(reasons).build();
        return new RemoteStreamResult(t, tx, rx, HostClock.UNSYNCHRONISED);
    }

    @Test
    void aValidRunReportsBothEndsRates() {
        RemoteStreamResult r = result(125_000, List.of());

        // 125 000 bytes in 1 s = 1 000 000 bit/s = 1 Mbit/s at each end: this host sends (forward), so its
        // figure is the sender's rate and the agent's the receiver's goodput (docs/metrics.md, one key per quantity)
        assertThat(r.metrics()).filteredOn(m -> m.name().endsWith("_mbps"))
                .extracting(m -> m.name() + m.labels() + "@" + m.host(), m -> m.value())
                .containsExactly(org.assertj.core.api.Assertions.tuple("tcp4_sent_mbps{direction=forward}@local", 1.0),
                        org.assertj.core.api.Assertions.tuple("tcp4_mbps{direction=forward}@remote", 1.0));
        assertThat(r.spec().testName()).isEqualTo("tcp4");
    }

    @Test
    void anInvalidRunReportsNoMetricsAndSaysWhy() {
        RemoteStreamResult r = result(0, List.of("no byte arrived in the receiver's window"));

        assertThat(r.invalidReasons()).containsExactly("no byte arrived in the receiver's window");
        assertThat(r.metrics()).isEmpty();
    }
}
