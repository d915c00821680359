package io.linerate.nio.latency;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Idle;
import io.linerate.core.Muxer;
import io.linerate.core.RrSpec;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A request/response flow allocates nothing per transaction once compiled, waiting in a selector
 * or polling through each idle strategy. A per-transaction allocation (16 bytes or more each)
 * would exceed one byte per transaction of the window in every run; a one-off JVM event may show
 * in a run, so one of at most three runs must allocate exactly nothing.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RrAllocationTest {
    static final RunFacts FACTS = new RunFacts("test", "d", "u", "c", "j", "o");

    static Stream<Arguments> modes() {
        return Stream.of(Arguments.of(Muxer.SELECTOR, null), Arguments.of(Muxer.SPIN, null),
                Arguments.of(Muxer.BACKOFF, null), Arguments.of(Muxer.SPIN, Idle.YIELD),
                Arguments.of(Muxer.SPIN, Idle.SLEEP));
    }

    @ParameterizedTest(name = "{0} idle {1}")
    @MethodSource("modes")
    void flowsAllocateNothingPerTransaction(Muxer m, Idle idle) throws Exception {
        // the warm-up gives the JIT some 10^4 transactions before the window opens
        RrSpec spec = RrSpec.builder().family(AddressFamily.IPV4).flows(1).requestBytes(64).responseBytes(64)
                .duration(Duration.ofMillis(500)).warmup(Duration.ofSeconds(1)).timeout(Duration.ofSeconds(5))
                .muxer(m).idle(idle).build();
        boolean clean = false;
        for (int run = 0; run < 3 && !clean; run++) {
            RrResult r = RequestResponse.run(spec, Clock.system(), FACTS);
            long transactions = r.report().flowTransactions().get(0);
            assertThat(transactions).isPositive();
            long allocated = r.flowAllocatedBytes().get(0);
            assertThat(allocated).as("bytes in %d transactions", transactions).isBetween(0L, transactions - 1);
            clean = allocated == 0;
        }
        assertThat(clean).as("one of three runs allocated nothing").isTrue();
    }
}
