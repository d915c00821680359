package io.linerate.core;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.spi.Transport;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@link Runs}: one spec run N times, one measurement at a time, ending at an interrupted run. */
class RunsTest {
    private static final TransferSpec SPEC = TransferSpec.builder().build();
    private static final AppliedOptions OPTIONS = new AppliedOptions(0x20, 0x20, 0, 1000, 0, 1000, false, false);

    /** Opens transfers that return at once; the run numbered {@code interruptedRun} (from 1) says it was interrupted. */
    private static final class Counting implements Transport {
        final int interruptedRun;
        final List<String> events = new ArrayList<>();
        int open;

        Counting(int interruptedRun) {
            this.interruptedRun = interruptedRun;
        }

        @Override
        public String name() {
            return "counting";
        }

        @Override
        public Optional<String> unsupportedReason(MeasurementSpec spec) {
            return Optional.empty();
        }

        @Override
        public Transfer open(MeasurementSpec spec, Clock clock) {
            int run = (int) events.stream().filter("open"::equals).count() + 1;
            events.add("open");
            open++;
            assertThat(open).as("measurements open at once").isEqualTo(1);
            return new Transfer() {
                @Override
                public TransferSpec spec() {
                    return SPEC;
                }

                @Override
                public TransferResult run(IntervalListener listener) {
                    events.add("run");
                    return TransferResult.builder(SPEC).options(OPTIONS).bytesSent(run).bytesReceived(run)
                            .interrupted(run == interruptedRun).build();
                }

                @Override
                public void close() {
                    events.add("close");
                    open--;
                }
            };
        }
    }

    @Test
    void runsTheSpecTheTimesAskedEachOpenedRunAndClosedBeforeTheNext() throws Exception {
        Counting t = new Counting(0);
        List<MeasurementResult> results = Runs.run(t, SPEC, Clock.system(), 3);
        assertThat(results).hasSize(3);
        assertThat(results).extracting(r -> ((TransferResult) r).bytesSent()).containsExactly(1L, 2L, 3L);
        assertThat(results).noneMatch(MeasurementResult::interrupted);
        assertThat(t.events).containsExactly("open", "run", "close", "open", "run", "close", "open", "run", "close");
    }

    @Test
    void anInterruptedRunIsTheLast() throws Exception {
        Counting t = new Counting(2);
        List<MeasurementResult> results = Runs.run(t, SPEC, Clock.system(), 5);
        assertThat(results).hasSize(2);
        assertThat(results.get(0).interrupted()).isFalse();
        assertThat(results.get(1).interrupted()).isTrue();
        assertThat(t.events).containsExactly("open", "run", "close", "open", "run", "close");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 1001})
    void aRepeatOutOfRangeIsRefusedNamingTheRange(int repeat) {
        Counting t = new Counting(0);
        assertThatThrownBy(() -> Runs.run(t, SPEC, Clock.system(), repeat))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("repeat " + repeat + " is out of range; allowed: 1..1000");
        assertThat(t.events).isEmpty();
    }

    @Test
    void theLimitsAreAllowed() throws Exception {
        assertThat(Runs.checkRepeat(1)).isEqualTo(1);
        assertThat(Runs.checkRepeat(Runs.MAX_REPEAT)).isEqualTo(1000);
    }
}
