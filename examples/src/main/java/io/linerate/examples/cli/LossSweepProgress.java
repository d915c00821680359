package io.linerate.examples.cli;

import io.linerate.core.TransferException;
import io.linerate.core.live.ProcessCounters;
import io.linerate.core.search.LossSweep;
import io.linerate.core.search.Trial;
import io.linerate.core.search.TrialOutcome;

/**
 * The progress line of {@code search --loss-sweep}: {@code loss sweep step 3 of at most 10: 16.000
 * Mbit/s offered | stream udp4 ...}, the step and the rate it offers, then the running trial's live
 * counters; before the steps, the unlimited trial that finds the max rate.
 */
final class LossSweepProgress implements ProgressView {
    /** Steps of a sweep at most: 100 %, 90 %, ... down to {@link LossSweep#LOWEST_PERCENT} %. */
    static final int MOST_STEPS = (100 - LossSweep.LOWEST_PERCENT) / LossSweep.STEP_PERCENT + 1;

    private volatile Step current;
    private int steps;

    private record Step(int number, long offered) {}

    /** @return {@code trial}, telling this view of each trial before it runs */
    Trial watching(Trial trial) {
        return new Trial() {
            @Override
            public TrialOutcome run(long offeredBitsPerSecond) throws TransferException {
                if (offeredBitsPerSecond > 0) {
                    steps++;
                }
                current = new Step(steps, offeredBitsPerSecond);
                return trial.run(offeredBitsPerSecond);
            }

            @Override
            public long messageBits() {
                return trial.messageBits();
            }
        };
    }

    @Override
    public String line(ProcessCounters counters, long nowMillis) {
        Step s = current;
        String transfer = LiveFormat.latestTransfer(counters, nowMillis);
        if (s == null) {
            return transfer;
        }
        String head = s.offered() == 0 ? "loss sweep: unlimited rate, to find the max rate"
                : "loss sweep step " + s.number() + " of at most " + MOST_STEPS + ": " + SearchProgress.mbits(s.offered())
                + " Mbit/s offered";
        return ProgressView.join(head, transfer);
    }
}
