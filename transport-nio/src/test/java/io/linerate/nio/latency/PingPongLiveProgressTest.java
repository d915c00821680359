package io.linerate.nio.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.CountersFileReader;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.live.ProcessCounters;
import io.linerate.nio.internal.PingPongRunner;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each size of a ping-pong sweep is a progress report in the live counters while it runs: its label,
 * the sizes done before it of all; none is left when the sweep ends, whether it completed or failed.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PingPongLiveProgressTest {
    @TempDir
    Path dir;

    @BeforeEach
    void countersHere() {
        LiveCounters.process().directory(dir);
    }

    @AfterEach
    void restore() {
        LiveCounters.process().directory(null);
    }

    /** A clock that, at each reading, notes the progress reports in this process's counters file: what a reader sees. */
    private static final class Watching implements Clock {
        final Set<String> seen = new LinkedHashSet<>();

        @Override
        public long nanoTime() {
            Optional<Path> file = LiveCounters.process().file();
            if (file.isPresent()) {
                try {
                    Optional<ProcessCounters> p = CountersFileReader.read(file.get());
                    p.ifPresent(c -> c.groups().stream().filter(g -> g.kind() == CounterGroup.Kind.PROGRESS)
                            .forEach(g -> seen.add(g.label() + " " + g.value(CounterType.DONE).orElse(-1) + "/"
                                    + g.value(CounterType.TOTAL).orElse(-1))));
                } catch (IOException e) {
                    seen.add("unreadable: " + e.getMessage());
                }
            }
            return System.nanoTime();
        }
    }

    private static PingPongSpec.Builder sweep(List<Integer> sizes) {
        return PingPongSpec.builder().protocol(PingPongProtocol.TCP).sizes(sizes)
                // no time cap that a slow host could reach first: each size ends after its 5 + 50 round trips
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofMinutes(5), 50, 50, Duration.ZERO, 5))
                .timeout(Duration.ofSeconds(1));
    }

    @Test
    void eachSizeIsAReportWhileItRunsAndNoneIsLeftAfter() throws TransferException {
        Watching clock = new Watching();

        PingPongRunner.run(sweep(List.of(1, 64)).build(), clock, PingPongIntegrationTest.FACTS, -1);

        assertThat(clock.seen).containsExactly("pingpong tcp 1 B 0/2", "pingpong tcp 64 B 1/2");
        assertThat(LiveCounters.process().file()).isEmpty();
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aSweepThatFailsLeavesNoReport() {
        Watching clock = new Watching();
        // the echo server stops answering after 20 answers: the first size's round trip 21 times out
        assertThatThrownBy(() -> PingPongRunner.run(sweep(List.of(32, 64)).build(), clock, PingPongIntegrationTest.FACTS, 20))
                .isInstanceOf(TransferException.class);

        assertThat(clock.seen).containsExactly("pingpong tcp 32 B 0/2");
        assertThat(LiveCounters.process().file()).isEmpty();
        assertThat(dir).isEmptyDirectory();
    }
}
