package io.linerate.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.UdpStats;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** How a test suite embeds linerate: docs/junit.md shows this code. */
class EmbeddingExampleTest {

    @Test
    void tcpLoopbackMovesEveryByte() throws Exception {
        TransferSpec spec = TransferSpec.builder()
                .protocol(Protocol.TCP)
                .family(AddressFamily.IPV6)
                .noDelay(true)
                .duration(Duration.ofMillis(500))
                .build();
        try (Transfer transfer = Transports.forSpec(spec).open(spec, Clock.system())) {
            TransferResult result = transfer.run();

            assertThat(result.valid()).as("reasons: %s", result.invalidReasons()).isTrue();
            assertThat(result.bytesReceived()).isEqualTo(result.bytesSent());
            assertThat(result.options().noDelayApplied()).isTrue();
            assertThat(result.bitsPerSecond()).isPresent();
        }
    }

    @Test
    void pacedUdpAccountsForEveryDatagram() throws Exception {
        TransferSpec spec = TransferSpec.builder()
                .protocol(Protocol.UDP)
                .rateBitsPerSecond(50_000_000) // 50 Mbit/s
                .duration(Duration.ofMillis(500))
                .build();
        try (Transfer transfer = Transports.forSpec(spec).open(spec, Clock.system())) {
            UdpStats udp = transfer.run().udp().orElseThrow();

            // Loopback UDP may drop when the receiver is descheduled on a busy host, so the test
            // holds the accounting identity, not zero loss: every datagram sent in the window was
            // either received or lost.
            assertThat(udp.datagramsSent()).isPositive();
            assertThat(udp.datagramsReceived() + udp.lost()).isEqualTo(udp.datagramsSent());
        }
    }
}
