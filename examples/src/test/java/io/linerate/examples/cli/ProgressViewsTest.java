package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.ProcessCounters;
import io.linerate.core.search.LossSweep;
import io.linerate.core.search.RateSearch;
import io.linerate.core.search.Resolution;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.search.SearchTrial;
import io.linerate.core.search.TrialOutcome;
import io.linerate.suite.LoopbackSuite.Marker;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the progress line says for each kind of run, from synthetic live counters. */
class ProgressViewsTest {
    private static final long NOW = 1_000_000_000_000L;
    private static final long M = 1_000_000L;

    /** A stream that has run 1.5 s, at 123.456 Mbit/s, with 2.5 MB (decimal) received. */
    private static final CounterGroup STREAM = new CounterGroup(7, CounterGroup.Kind.TRANSFER, "stream tcp4 1228 B 2.000 s",
            NOW - 1_500, Map.of(CounterType.BYTES_RECEIVED, 2_500_000L, CounterType.RATE, 123_456_000L));
    private static final String STREAM_TEXT = "stream tcp4 1228 B 2.000 s: 1.5 s, 123.456 Mbit/s, 2.500 MB received";

    private static ProcessCounters counters(CounterGroup... groups) {
        return new ProcessCounters(Path.of("linerate-42.counters"), 42, -1, NOW - 10_000, NOW, List.of(groups));
    }

    @Test
    void aRepeatedSuiteSaysTheRunOfNAndTheCaseWithinIt() {
        SuiteProgress p = new SuiteProgress(3, List.of(Marker.UDP4, Marker.TCP4, Marker.TCP6));
        assertThat(p.line(counters(STREAM), NOW)).as("before the first start: the counters alone").isEqualTo(STREAM_TEXT);

        p.started(Marker.TCP4, 2);

        assertThat(p.line(counters(STREAM), NOW)).isEqualTo("loopback run 2/3, case 2/3 tcp4 | " + STREAM_TEXT);
        assertThat(p.line(counters(), NOW)).isEqualTo("loopback run 2/3, case 2/3 tcp4");
    }

    @Test
    void aSuiteRunOnceSaysTheCaseOnly() {
        SuiteProgress p = new SuiteProgress(1, List.of(Marker.UDP4, Marker.TCP4, Marker.TCP6));
        p.started(Marker.TCP6, 1);
        assertThat(p.line(counters(STREAM), NOW)).isEqualTo("loopback case 3/3 tcp6 | " + STREAM_TEXT);
    }

    @Test
    void aSearchSaysTheTrialTheRateOfferedAndTheBracketSoFar() throws TransferException {
        SearchProgress p = new SearchProgress();
        List<String> seen = new ArrayList<>();
        // the line as it is while each trial runs; no loss at or below 300 Mbit/s, the sender achieves 1000 unlimited
        io.linerate.core.search.Trial knee = offered -> {
            seen.add(p.line(counters(), NOW));
            long sent = 100_000;
            long lost = offered > 300 * M ? sent : 0;
            return new TrialOutcome(offered, offered == 0 ? 1000 * M : offered, sent, sent - lost, lost);
        };
        SearchSpec spec = SearchSpec.builder().minBitsPerSecond(100 * M).strict().resolution(Resolution.absolute(100 * M))
                .confirm(1).build();

        RateSearch.run(spec, knee, p);

        // bisection mid = lo + (hi - lo) / 2 from 100..1000 Mbit/s: 550 and 325 fail, 212.5 and 268.75 pass
        assertThat(seen).containsExactly(
                "search trial 1 (calibration): unlimited rate, to find the max rate",
                "search trial 2 (search): 550.000 Mbit/s offered, bracket 100.000..1000.000 Mbit/s",
                "search trial 3 (search): 325.000 Mbit/s offered, bracket 100.000..550.000 Mbit/s",
                "search trial 4 (search): 212.500 Mbit/s offered, bracket 100.000..325.000 Mbit/s",
                "search trial 5 (search): 268.750 Mbit/s offered, bracket 212.500..325.000 Mbit/s",
                "search trial 6 (confirm): 268.750 Mbit/s offered, bracket 268.750..325.000 Mbit/s");
    }

    @Test
    void aSearchOverRawFramesLeadsWithTheFrameSizeOfHowMany() {
        SearchProgress p = new SearchProgress(List.of(60, 124));
        CounterGroup raw = new CounterGroup(3, CounterGroup.Kind.TRANSFER, "raw tx a rx b 60 B 2.000 s", NOW - 700,
                Map.of(CounterType.BYTES_RECEIVED, 999L));
        String rawText = "raw tx a rx b 60 B 2.000 s: 0.7 s, 999 B received";

        p.trialStarting(3, SearchTrial.Phase.SEARCH, 5 * M, 1 * M, 10 * M);
        assertThat(p.line(counters(raw), NOW))
                .isEqualTo("search 60 B (1/2), trial 3 (search): 5.000 Mbit/s offered, bracket 1.000..10.000 Mbit/s | " + rawText);

        p.sizeDone();
        assertThat(p.line(counters(), NOW)).as("between two sizes' searches").isEmpty();

        p.trialStarting(1, SearchTrial.Phase.CALIBRATION, 0, 0, 0);
        assertThat(p.line(counters(), NOW)).isEqualTo("search 124 B (2/2), trial 1 (calibration): unlimited rate, to find "
                + "the max rate");
    }

    @Test
    void aLossSweepSaysTheStepOfAtMostTenAndTheRateOffered() throws TransferException {
        LossSweepProgress p = new LossSweepProgress();
        List<String> seen = new ArrayList<>();
        // no loss anywhere: the sweep stops after its second step; the unlimited trial achieves 20 Mbit/s
        io.linerate.core.search.Trial lossFree = offered -> {
            seen.add(p.line(counters(), NOW));
            return new TrialOutcome(offered, offered == 0 ? 20 * M : offered, 1000, 1000, 0);
        };

        LossSweep.run(0, p.watching(lossFree));

        // 100 % and 90 % of 20 Mbit/s; RFC 2544 section 26.3 steps by 10 % from 100 % to 10 %: 10 steps at most
        assertThat(seen).containsExactly(
                "loss sweep: unlimited rate, to find the max rate",
                "loss sweep step 1 of at most 10: 20.000 Mbit/s offered",
                "loss sweep step 2 of at most 10: 18.000 Mbit/s offered");
    }

    @Test
    void aPingPongSweepSaysTheSizeOfHowManyAndItsTimeAgainstTheCap() {
        CounterGroup size = new CounterGroup(5, CounterGroup.Kind.PROGRESS, "pingpong tcp 64 B", NOW - 1_200,
                Map.of(CounterType.DONE, 2L, CounterType.TOTAL, 16L));
        IterationPolicy warm = new IterationPolicy(Duration.ofSeconds(1), Duration.ofSeconds(3), 1000, 1_000_000,
                Duration.ofMillis(250), 1000);
        IterationPolicy cold = new IterationPolicy(Duration.ofSeconds(1), Duration.ofMillis(2500), 1000, 1_000_000,
                Duration.ZERO, 0);

        // two sizes done before this one: it is the third of 16; it started 1200 ms ago
        assertThat(new SizeSweepProgress(warm).line(counters(size), NOW))
                .isEqualTo("pingpong tcp 64 B, size 3/16: 1.2 s of at most 0.250 s warm-up + 3.000 s");
        assertThat(new SizeSweepProgress(cold).line(counters(size), NOW))
                .isEqualTo("pingpong tcp 64 B, size 3/16: 1.2 s of at most 2.500 s");
        assertThat(new SizeSweepProgress(cold).line(counters(), NOW)).as("between sizes, or before the first").isEmpty();
    }

    @Test
    void aRawRunSaysItsTimeAgainstWarmUpAndDurationAndTheFramesOfEachEnd() {
        CounterGroup run = new CounterGroup(2, CounterGroup.Kind.TRANSFER, "raw tx veth0 rx veth1 1514 B 10.000 s",
                NOW - 4_200, Map.of(CounterType.MESSAGES_SENT, 123_456L, CounterType.MESSAGES_RECEIVED, 123_450L,
                CounterType.BYTES_RECEIVED, 123_450L * 1514));
        RawTransferSpec both = RawTransferSpec.builder("veth0", "veth1").warmup(Duration.ofSeconds(1))
                .duration(Duration.ofSeconds(10)).build();
        RawTransferSpec rxOnly = RawTransferSpec.rxOnly("veth1").warmup(Duration.ofMillis(500))
                .duration(Duration.ofSeconds(10)).build();

        // registered 4200 ms ago: 4.2 s
        assertThat(new RawProgress(both).line(counters(run), NOW)).isEqualTo("raw 4.2 s of 1.000 s warm-up + 10.000 s, "
                + "tx 123456 frames, rx 123450 frames | raw tx veth0 rx veth1 1514 B 10.000 s");
        assertThat(new RawProgress(rxOnly).line(counters(run), NOW)).isEqualTo("raw 4.2 s of 0.500 s warm-up + 10.000 s, "
                + "rx 123450 frames | raw tx veth0 rx veth1 1514 B 10.000 s");
        assertThat(new RawProgress(both).line(counters(), NOW)).as("before the run registers").isEmpty();
    }
}
