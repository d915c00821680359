package io.linerate.examples.cli;

import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.ProcessCounters;
import java.util.Locale;

/**
 * The progress line of {@code pingpong}: {@code pingpong tcp 64 B, size 3/16: 1.2 s of at most 0.250 s
 * warm-up + 3.000 s}, the size running and which of how many, and how long it has run against its
 * bound: the warm-up (itself cut at the time cap) and then the measured part's time cap
 * ({@code --maxms}); a size also ends sooner, at its round-trip cap or once both floors are met
 * ({@link IterationPolicy}). Read from the size's progress report in the live counters: its label, the
 * sizes done before it ({@code DONE}) of all ({@code TOTAL}), and its start time.
 */
final class SizeSweepProgress implements ProgressView {
    private final IterationPolicy policy;

    /** @param policy how long each size runs */
    SizeSweepProgress(IterationPolicy policy) {
        this.policy = policy;
    }

    @Override
    public String line(ProcessCounters counters, long nowMillis) {
        return LiveFormat.latest(counters, CounterGroup.Kind.PROGRESS).map(g -> String.format(Locale.ROOT,
                "%s, size %d/%d: %.1f s of at most %s%.3f s", g.label(), g.value(CounterType.DONE).orElse(0) + 1,
                g.value(CounterType.TOTAL).orElse(0), LiveFormat.seconds(nowMillis - g.startMillis()),
                policy.warmup().isZero() && policy.warmupIterations() == 0 ? ""
                        : String.format(Locale.ROOT, "%.3f s warm-up + ", seconds(policy.warmup().toNanos())),
                seconds(policy.maxTime().toNanos()))).orElse("");
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
