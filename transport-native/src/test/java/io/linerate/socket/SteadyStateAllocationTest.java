package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.StreamIo;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native send and receive loops allocate nothing once compiled, as the nio transport's: the
 * engine reads each worker thread's allocated-bytes counter at both ends of the measured window.
 * A loop that allocated per message would show at least 16 bytes per message; the JIT may still,
 * rarely, recompile a loop inside the window, a one-off of a few kilobytes. So each run must stay
 * under 0.01 byte per message, and one of at most three runs must show exactly 0.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SteadyStateAllocationTest {

    @ParameterizedTest
    @ValueSource(longs = {0, 100_000_000L})
    void sendAndReceiveLoopsAllocateNothingAfterWarmup(long rate) throws Exception {
        allocateNothingInTheWindow(TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4)
                .rateBitsPerSecond(rate).warmup(Duration.ofSeconds(3)).duration(Duration.ofSeconds(1))
                .interval(Duration.ofSeconds(1)).build());
    }

    /** The UDP loops in sendmmsg/recvmmsg batches, and with GSO and GRO splitting each coalesced receive. */
    @ParameterizedTest
    @CsvSource({"false, 0", "false, 100000000", "true, 0", "true, 100000000"})
    void batchedUdpLoopsAllocateNothingAfterWarmup(boolean gso, long rate) throws Exception {
        allocateNothingInTheWindow(TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4)
                .payloadBytes(1400).io(new StreamIo(0, gso, false, false)).rateBitsPerSecond(rate)
                .warmup(Duration.ofSeconds(3)).duration(Duration.ofSeconds(1)).interval(Duration.ofSeconds(1)).build());
    }

    private static void allocateNothingInTheWindow(TransferSpec spec) throws Exception {
        boolean clean = false;
        for (int run = 0; run < 3 && !clean; run++) {
            TransferResult r;
            try (Transfer t = Transports.byName("native").open(spec, Clock.system())) {
                r = t.run();
            }
            long messages = r.messagesSent();
            assertThat(messages).isGreaterThan(10_000);
            assertThat(r.senderAllocatedBytes()).as("sender bytes allocated in the window").isNotNegative()
                    .isLessThan(messages / 100);
            assertThat(r.receiverAllocatedBytes()).as("receiver bytes allocated in the window").isNotNegative()
                    .isLessThan(messages / 100);
            clean = r.senderAllocatedBytes() == 0 && r.receiverAllocatedBytes() == 0;
        }
        assertThat(clean).as("one of three runs allocated nothing in its window").isTrue();
    }
}
