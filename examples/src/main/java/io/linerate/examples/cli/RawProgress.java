package io.linerate.examples.cli;

import io.linerate.core.RawTransferSpec;
import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.ProcessCounters;
import java.util.Locale;

/**
 * The progress line of {@code raw}: {@code raw 4.2 s of 1.000 s warm-up + 10.000 s, tx 123456 frames,
 * rx 123450 frames | raw tx veth0 rx veth1 1514 B 10.000 s}, how long the run has gone against its
 * warm-up and duration and the frames each end here counted so far, first so that a narrow terminal
 * still shows them, then the run's label. Read from the run's own live
 * counters, which its monitoring thread publishes (never the send or receive loop), so the line
 * adds no work per frame.
 */
final class RawProgress implements ProgressView {
    private final RawTransferSpec spec;

    /** @param spec the run */
    RawProgress(RawTransferSpec spec) {
        this.spec = spec;
    }

    @Override
    public String line(ProcessCounters counters, long nowMillis) {
        return LiveFormat.latest(counters, CounterGroup.Kind.TRANSFER).map(g -> String.format(Locale.ROOT,
                "raw %.1f s of %.3f s warm-up + %.3f s%s%s | %s", LiveFormat.seconds(nowMillis - g.startMillis()),
                spec.warmup().toNanos() / 1e9, spec.duration().toNanos() / 1e9,
                spec.txInterface().isPresent() ? ", tx " + g.value(CounterType.MESSAGES_SENT).orElse(0) + " frames" : "",
                spec.rxInterface().isPresent() ? ", rx " + g.value(CounterType.MESSAGES_RECEIVED).orElse(0) + " frames" : "",
                g.label())).orElse("");
    }
}
