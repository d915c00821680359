package io.linerate.nio;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The per-message send and receive loops allocate nothing once compiled: the engine reads each
 * worker thread's allocated-bytes counter at both ends of the measured window.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SteadyStateAllocationTest {

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void sendAndReceiveLoopsAllocateNothingAfterWarmup(Protocol p) throws Exception {
        TransferSpec spec = TransferSpec.builder().protocol(p).family(AddressFamily.IPV4)
                .warmup(Duration.ofSeconds(3)).duration(Duration.ofSeconds(1)).interval(Duration.ofSeconds(1)).build();
        TransferResult r;
        try (Transfer t = Transports.byName("nio").open(spec, Clock.system())) {
            r = t.run();
        }
        assertThat(r.messagesSent()).isPositive();
        assertThat(r.senderAllocatedBytes()).as("sender bytes allocated in the window").isZero();
        assertThat(r.receiverAllocatedBytes()).as("receiver bytes allocated in the window").isZero();
    }
}
