package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.RrSpec;
import io.linerate.core.Transports;
import io.linerate.core.latency.RrResult;
import io.linerate.core.spi.Transport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The native request/response flow's transactions allocate nothing once compiled, TCP_RR and
 * TCP_CRR (a connection per transaction) alike: each flow reads its thread's allocated-bytes
 * counter at both ends of the measured window, after a warm-up long enough for the JIT. The run
 * is made three times: an allocation per transaction (an object is 16 bytes or more) would reach
 * 16 bytes per transaction in every run, so every run must stay below that, and at least one must
 * allocate exactly nothing (a one-off JVM event, such as a recompilation, may show in another).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RrFlowAllocationTest {

    @ParameterizedTest(name = "crr {0}")
    @ValueSource(booleans = {false, true})
    void transactionsAllocateNothingAfterWarmup(boolean crr) throws Exception {
        Transport t = Transports.byName(NativeTransport.NAME);
        assumeTrue(t.unavailabilityCause().isEmpty(), () -> "the native transport cannot load here: "
                + t.unavailabilityCause().orElseThrow());
        RrSpec spec = RrSpec.builder().crr(crr).flows(1).requestBytes(64).responseBytes(128).noDelay(true)
                .warmup(Duration.ofMillis(1500)).duration(Duration.ofMillis(500)).timeout(Duration.ofSeconds(5)).build();
        List<Long> clean = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            RrResult r;
            try (Measurement m = t.open(spec, Clock.system())) {
                r = (RrResult) m.run();
            }
            long transactions = r.report().transactions();
            long allocated = r.flowAllocatedBytes().get(0);
            assertThat(transactions).isPositive();
            assertThat(allocated).as("bytes the flow's thread allocated in %d transactions", transactions)
                    .isBetween(0L, 16 * transactions - 1);
            if (allocated == 0) {
                clean.add(transactions);
            }
        }
        assertThat(clean).as("runs whose window allocated nothing").isNotEmpty();
    }
}
