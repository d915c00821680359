package io.linerate.examples.cli;

import io.linerate.core.TransferSpec;
import io.linerate.core.live.ProcessCounters;
import io.linerate.suite.LoopbackSuite.Marker;
import io.linerate.suite.LoopbackSuite.Outcome;
import io.linerate.suite.LoopbackSuite;
import java.util.List;
import java.util.function.Consumer;

/**
 * The progress line of {@code loopback}: {@code loopback run 2/3, case 4/8 tcp4 | stream tcp4 ...}, the
 * run of {@code --repeat N} and the case (marker) within it, then the running transfer's live counters.
 * The run is left out when the suite runs once.
 */
final class SuiteProgress implements ProgressView {
    private final int repeat;
    private final List<Marker> markers;
    private volatile Started started;

    private record Started(int run, Marker marker) {}

    /**
     * @param repeat runs per marker, in rounds, 1 or more
     * @param markers the suite's markers in the order each round runs them
     */
    SuiteProgress(int repeat, List<Marker> markers) {
        this.repeat = repeat;
        this.markers = List.copyOf(markers);
    }

    /**
     * A transfer starts.
     *
     * @param marker its marker
     * @param run its run, 1..repeat
     */
    void started(Marker marker, int run) {
        started = new Started(run, marker);
    }

    /** @return a suite listener that tells this view of each start and hands each outcome to {@code outcomes} */
    LoopbackSuite.Listener listener(Consumer<Outcome> outcomes) {
        return new LoopbackSuite.Listener() {
            @Override
            public void onStart(Marker marker, int run, TransferSpec spec) {
                started(marker, run);
            }

            @Override
            public void onOutcome(Outcome outcome) {
                outcomes.accept(outcome);
            }
        };
    }

    @Override
    public String line(ProcessCounters counters, long nowMillis) {
        Started s = started;
        String transfer = LiveFormat.latestTransfer(counters, nowMillis);
        if (s == null) {
            return transfer;
        }
        String head = "loopback " + (repeat > 1 ? "run " + s.run() + "/" + repeat + ", " : "") + "case "
                + (markers.indexOf(s.marker()) + 1) + "/" + markers.size() + " " + s.marker().label();
        return ProgressView.join(head, transfer);
    }
}
