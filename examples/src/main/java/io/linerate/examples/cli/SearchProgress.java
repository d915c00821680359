package io.linerate.examples.cli;

import io.linerate.core.live.ProcessCounters;
import io.linerate.core.search.RateSearch;
import io.linerate.core.search.SearchTrial;
import java.util.List;
import java.util.Locale;

/**
 * The progress line of {@code search}: {@code search trial 5 (search): 212.500 Mbit/s offered, bracket
 * 100.000..325.000 Mbit/s | stream udp4 ...}, the trial, the rate it offers and the bracket so far
 * (from {@link RateSearch.Observer}), then the running trial's live counters. Over raw frames the
 * frame size of the search leads: {@code search 124 B (2/5), trial 5 ...}; rates are those the
 * search counts (UDP payload bit/s, or L2 bit/s over raw frames), in Mbit/s (10^6 bit/s).
 */
final class SearchProgress implements ProgressView, RateSearch.Observer {
    private final List<Integer> frameSizes;
    private volatile Trial trial;
    private volatile int sizesDone;

    private record Trial(int number, SearchTrial.Phase phase, long offered, long lower, long upper) {}

    /** A view of one search. */
    SearchProgress() {
        this(List.of());
    }

    /** @param frameSizes the frame sizes searched one after another, in order; empty for one search */
    SearchProgress(List<Integer> frameSizes) {
        this.frameSizes = List.copyOf(frameSizes);
    }

    @Override
    public void trialStarting(int number, SearchTrial.Phase phase, long offered, long lower, long upper) {
        trial = new Trial(number, phase, offered, lower, upper);
    }

    /** The search of the current frame size has ended; the next begins. */
    void sizeDone() {
        sizesDone++;
        trial = null;
    }

    @Override
    public String line(ProcessCounters counters, long nowMillis) {
        Trial t = trial;
        String transfer = LiveFormat.latestTransfer(counters, nowMillis);
        if (t == null) {
            return transfer;
        }
        String head = "search " + (frameSizes.isEmpty() || sizesDone >= frameSizes.size() ? ""
                : frameSizes.get(sizesDone) + " B (" + (sizesDone + 1) + "/" + frameSizes.size() + "), ")
                + "trial " + t.number() + " (" + t.phase().label() + "): "
                + (t.phase() == SearchTrial.Phase.CALIBRATION ? "unlimited rate, to find the max rate"
                : mbits(t.offered()) + " Mbit/s offered, bracket " + mbits(t.lower()) + ".." + mbits(t.upper()) + " Mbit/s");
        return ProgressView.join(head, transfer);
    }

    /** @return bit/s as Mbit/s (10^6 bit/s) with three decimals */
    static String mbits(long bitsPerSecond) {
        return String.format(Locale.ROOT, "%.3f", bitsPerSecond / 1e6);
    }
}
