package io.linerate.core.search;

import io.linerate.core.TransferException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * RFC 2544's throughput test (section 26.1): the highest offered rate at which a load loses no
 * more than the tolerance, found by bisection as TRex's NDR/PDR search does, each load judged by
 * one trial (the {@linkplain SearchSpec#strict() strict} search, RFC 2544's) or, by default, by
 * the share of up to {@link SearchSpec#trialsPerLoad()} trials that failed (the robust search,
 * MLRsearch's rule: IETF BMWG draft "Multiple Loss Ratio Search").
 *
 * <ol>
 * <li>Range. Without a max rate, one trial at unlimited rate runs first (phase {@code calibration})
 * and what it achieved, rounded down to whole bit/s, is the max rate. Without a min rate, the min
 * is {@value SearchSpec#DEFAULT_MIN_FRACTION} of the max (at least 1 bit/s), raised to
 * {@link SearchSpec#minCarryingBitsPerSecond(long)} where that is higher: a trial below it carries
 * fewer than {@value SearchSpec#MIN_MESSAGES_PER_TRIAL} messages and says nothing. A given min or
 * max that low is refused before any trial ({@link SearchSpec#checkCarries(long)}).</li>
 * <li>Trials. A trial passes when it lost no more than the tolerance and achieved the offered rate
 * within the allowed shortfall, judged by {@link SearchTrial#judge}: the resolution at {@code hi} plus
 * one message per trial window ({@link SearchSpec#messageShortfallBitsPerSecond(long) messageBits / T},
 * {@link Trial#messageBits()}). A trial counts whole messages, so at low rates a sender that paced
 * every message on time still falls short by up to one message, which can exceed the resolution (a
 * 1400 B payload in a 500 ms trial is 22400 bit/s, more than 1 % of any max below 2.24 Mbit/s); and a
 * paced sender on a busy host ends a window a few messages behind. A trial within the allowance has
 * not shown that the path carries the offered rate, only the rate it achieved: so the search reports
 * as its result the rate its found load's trials carried ({@link SearchResult#carriedBitsPerSecond()}),
 * never the offered one.</li>
 * <li>Loads. A load of {@code N = trialsPerLoad} fails when {@code K = ⌊N / 2⌋ + 1} of its trials fail
 * and passes when {@code N − K + 1} pass; its trials run one after another and stop as soon as
 * either holds ({@link LoadJudgement#decided}). So in the robust search a failed trial is re-run
 * before it moves a bound, and a sporadic loss on a busy host (one failed trial of three) does not
 * drag the search down. With {@code N = 1} one trial decides, as in RFC 2544.</li>
 * <li>Bisection. {@code lo} starts at the min and {@code hi} at the max, both untested. While
 * {@code hi − lo} is wider than the resolution at {@code hi} (an absolute rate, or a fraction of
 * {@code hi}) and fewer than {@link SearchSpec#maxTrials()} loads have been judged, the load
 * {@code mid = lo + ⌊(hi − lo) / 2⌋} passes ({@code lo = mid}) or fails ({@code hi = mid}). With an
 * absolute resolution {@code r} this takes at most {@code ⌈log2((max − min) / r)⌉} loads: each
 * halves the interval, rounding up, and {@code ⌈w / 2^k⌉ ≤ r} exactly when {@code w / 2^k ≤ r} for a
 * whole {@code r}.</li>
 * <li>Confirm. The found rate is {@code lo}; it is judged {@link SearchSpec#confirm()} more times as a
 * load, stopping at the first judgement that fails. All pass: the search ends with {@code lo}
 * found. Because the min is never tested before, this also checks it when every bisection load
 * failed.</li>
 * <li>A failed confirm judgement means the loss curve is not monotonic (or a lucky trial decided), or,
 * for a pattern with a validity rule beyond loss, that the trial was not valid
 * ({@link SearchTrial.Verdict#INVALID}: a raw receiver's ring dropped frames). If
 * {@code lo} is the min, the search ends with nothing found: even the min rate loses; when it
 * failed by shortfall (the sender could not offer it) a note says so and suggests a lower min. Otherwise
 * {@code lo} is taken as failing: {@code hi = lo}, and {@code lo} becomes the highest rate below it
 * that passed (or the min, when none did); a note says so, and the bisection and confirm
 * steps run again below. Each round lowers {@code hi} strictly, so the search ends; the bisection
 * loads of all rounds together stay within {@link SearchSpec#maxTrials()}.</li>
 * </ol>
 *
 * <p>When the bisection stops at {@link SearchSpec#maxTrials()} before the resolution was reached,
 * the result says so ({@link SearchResult#converged()} false, and a note) and its found rate is the
 * highest confirmed so far. When every bisection load passed, the found rate is within the
 * resolution below the max rate, which is never tested itself. The result's
 * {@link SearchResult#carriedBitsPerSecond()} is the rate the found load's passing trials carried
 * (the lowest they achieved), which metrics report; {@link SearchResult#loads()} says how many
 * trials each judgement took.
 */
public final class RateSearch {
    private static final Logger LOG = LoggerFactory.getLogger(RateSearch.class);

    private final SearchSpec spec;
    private final Trial trial;
    private final Observer observer;
    /** The bracket so far, bit/s: 0 and 0 until the range is known. */
    private long lo;
    private long hi;
    private final List<SearchTrial> trials = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private final List<LoadJudgement> loads = new ArrayList<>();
    /** Rates whose load passed, for stepping below a rate whose confirm failed. */
    private final TreeSet<Long> passed = new TreeSet<>();

    private RateSearch(SearchSpec spec, Trial trial, Observer observer) {
        this.spec = spec;
        this.trial = trial;
        this.observer = observer;
    }

    /** Hears of each trial of a search before it runs, on the search's thread; for progress reports. */
    @FunctionalInterface
    public interface Observer {
        /** Hears nothing. */
        Observer NONE = (number, phase, offered, lower, upper) -> { };

        /**
         * A trial is about to run.
         *
         * @param number the trial's number, 1, 2, ... as in {@link SearchResult#trials()}
         * @param phase why it runs
         * @param offeredBitsPerSecond the rate it offers, bit/s; 0 for the unlimited trial that finds the max
         * @param lowerBitsPerSecond the bracket's lower bound so far, bit/s: the min rate or the highest
         *     load that passed; 0 before the range is known (during the unlimited trial)
         * @param upperBitsPerSecond the bracket's upper bound so far, bit/s: the max rate or the lowest
         *     load that failed; 0 before the range is known
         */
        void trialStarting(int number, SearchTrial.Phase phase, long offeredBitsPerSecond, long lowerBitsPerSecond,
                           long upperBitsPerSecond);
    }

    /**
     * Runs a search.
     *
     * @param spec the parameters
     * @param trial runs one trial at a given offered rate
     * @return the trials and the found rate
     * @throws TransferException when a trial cannot be run, or the unlimited trial moved nothing
     * @throws IllegalArgumentException before any trial, when a given min or max rate carries fewer
     *     than {@value SearchSpec#MIN_MESSAGES_PER_TRIAL} of the trial's messages in a trial; and when
     *     the range derived from the unlimited trial is unusable (a min at or above what it achieved,
     *     or an absolute resolution of half of it or more); naming the values and where they came from
     */
    public static SearchResult run(SearchSpec spec, Trial trial) throws TransferException {
        return run(spec, trial, Observer.NONE);
    }

    /**
     * Runs a search, telling {@code observer} of each trial before it runs.
     *
     * @param observer hears of each trial; {@link Observer#NONE} for none
     * @return the trials and the found rate
     * @throws TransferException as {@link #run(SearchSpec, Trial)}
     * @throws IllegalArgumentException as {@link #run(SearchSpec, Trial)}
     */
    public static SearchResult run(SearchSpec spec, Trial trial, Observer observer) throws TransferException {
        return new RateSearch(Objects.requireNonNull(spec, "spec"), Objects.requireNonNull(trial, "trial"),
                Objects.requireNonNull(observer, "observer")).search();
    }

    private SearchResult search() throws TransferException {
        long messageBits = trial.messageBits();
        spec.checkCarries(messageBits);
        long max = spec.maxBitsPerSecond() != 0 ? spec.maxBitsPerSecond() : calibrate();
        MinRate min = minRate(max, messageBits);
        SearchSpec.checkResolution(spec.resolution(), max);
        lo = min.bitsPerSecond();
        hi = max;
        int bisections = 0;
        while (true) {
            bisections = bisect(bisections);
            boolean converged = hi - lo <= resolutionAt(hi);
            if (!converged && notes.stream().noneMatch(n -> n.startsWith("stopped"))) {
                notes.add(String.format(Locale.ROOT, "stopped after %d search %ss (max trials): the interval %d..%d "
                        + "bit/s is wider than the resolution of %d bit/s", bisections, spec.strict() ? "trial" : "load", lo,
                        hi, resolutionAt(hi)));
            }
            if (confirm(lo, shortfallAt(hi))) {
                return result(min.bitsPerSecond(), max, OptionalLong.of(lo), hi, converged);
            }
            if (lo == min.bitsPerSecond()) {
                noteMinFailed(min);
                return result(min.bitsPerSecond(), max, OptionalLong.empty(), min.bitsPerSecond(), converged);
            }
            searchOnBelow(min.bitsPerSecond());
        }
    }

    /**
     * The lowest rate searched and where it came from ({@code given}, 1 % of the max, or the lowest
     * rate at which a trial carries {@value SearchSpec#MIN_MESSAGES_PER_TRIAL} messages).
     */
    private record MinRate(long bitsPerSecond, String from) {}

    /** Runs the unlimited trial whose achieved rate becomes the max. @return the max, bit/s */
    private long calibrate() throws TransferException {
        observer.trialStarting(trials.size() + 1, SearchTrial.Phase.CALIBRATION, 0, 0, 0);
        TrialOutcome o = trial.run(0);
        trials.add(new SearchTrial(trials.size() + 1, SearchTrial.Phase.CALIBRATION, o, 0, SearchTrial.Verdict.MEASURED));
        long max = (long) Math.floor(o.achievedBitsPerSecond());
        if (max < 2) {
            throw new TransferException("the unlimited-rate trial that sets the max rate achieved "
                    + o.achievedBitsPerSecond() + " bit/s (sent " + o.sent() + "); nothing to search below it; give "
                    + "--max-rate", null);
        }
        LOG.debug("max rate {} bit/s from an unlimited trial", max);
        return max;
    }

    /** @throws IllegalArgumentException when the min is not below {@code max}, naming both and where they came from */
    private MinRate minRate(long max, long messageBits) {
        long floor = spec.minCarryingBitsPerSecond(messageBits);
        MinRate min;
        if (spec.minBitsPerSecond() != 0) {
            min = new MinRate(spec.minBitsPerSecond(), "given");
        } else if (Math.round(max * SearchSpec.DEFAULT_MIN_FRACTION) >= floor) {
            min = new MinRate(Math.max(1, Math.round(max * SearchSpec.DEFAULT_MIN_FRACTION)), "1% of the max, at least 1 bit/s");
        } else {
            min = new MinRate(Math.max(1, floor), String.format(Locale.ROOT, "the lowest at which a trial of %d ms carries "
                    + "%d messages of %s, above 1%% of the max", spec.trial().toMillis(), SearchSpec.MIN_MESSAGES_PER_TRIAL,
                    SearchSpec.messageSize(messageBits)));
        }
        if (min.bitsPerSecond() >= max) {
            throw new IllegalArgumentException("min rate " + min.bitsPerSecond() + " bit/s (" + min.from() + ") is not "
                    + "below the max rate " + max + " bit/s " + (spec.maxBitsPerSecond() != 0 ? "(given)"
                    : "that the unlimited trial achieved") + "; allowed: min < max");
        }
        return min;
    }

    /**
     * Halves the bracket {@code lo..hi} by search loads until it is within the resolution or the
     * search loads reach {@link SearchSpec#maxTrials()}.
     *
     * @param bisections search loads judged so far
     * @return search loads judged now
     */
    private int bisect(int bisections) throws TransferException {
        while (hi - lo > resolutionAt(hi) && bisections < spec.maxTrials()) {
            long mid = lo + (hi - lo) / 2;
            bisections++;
            if (judgeLoad(SearchTrial.Phase.SEARCH, mid, shortfallAt(hi))) {
                lo = mid;
                passed.add(mid);
            } else {
                hi = mid;
            }
        }
        return bisections;
    }

    /** Notes why even the min rate failed its confirm judgement: the sender fell short, or loss. */
    private void noteMinFailed(MinRate min) {
        SearchTrial failed = trials.get(trials.size() - 1);
        if (failed.verdict() == SearchTrial.Verdict.SHORTFALL) {
            notes.add(String.format(Locale.ROOT, "even the min rate %d bit/s failed a confirm %s: the sender "
                    + "could not offer it, achieving %.0f bit/s, short by more than the allowed %d bit/s; the "
                    + "rate it can offer is below the min (%s): give a lower --min-rate", min.bitsPerSecond(), judgement(),
                    failed.outcome().achievedBitsPerSecond(), failed.allowedShortfallBitsPerSecond(), min.from()));
        } else {
            notes.add(String.format(Locale.ROOT, "even the min rate %d bit/s failed a confirm %s (loss tolerance %s%%)",
                    min.bitsPerSecond(), judgement(), tolerance()));
        }
    }

    /**
     * After a failed confirm at {@code lo}: it becomes the upper bound, and the search goes on from
     * the highest load below it that passed (or the min), noting why.
     */
    private void searchOnBelow(long min) {
        Long below = passed.lower(lo);
        long next = below != null ? below : min;
        SearchTrial last = trials.get(trials.size() - 1);
        if (last.verdict() == SearchTrial.Verdict.INVALID) {
            notes.add(String.format(Locale.ROOT, "a confirm %s at %d bit/s was not valid (%s); %d bit/s is now "
                    + "the upper bound and the search goes on below it, from %d bit/s", judgement(), lo,
                    String.join("; ", last.outcome().validityFailures()), lo, next));
        } else {
            notes.add(String.format(Locale.ROOT, "a confirm %s at %d bit/s failed after a search %s there passed: "
                    + "the loss curve is not monotonic; %d bit/s is now the upper bound and the search goes on below it, "
                    + "from %d bit/s", judgement(), lo, judgement(), lo, next));
        }
        hi = lo;
        lo = next;
    }

    private SearchResult result(long min, long max, OptionalLong found, long upper, boolean converged) {
        List<String> overruled = loads.stream().filter(l -> l.passed() && l.failed() > 0)
                .map(l -> Long.toString(l.offeredBitsPerSecond())).toList();
        if (!overruled.isEmpty()) {
            notes.add(String.format(Locale.ROOT, "a failed trial was outvoted at %s bit/s: each load passed, since it fails "
                    + "only when %d of its up to %d trials fail", String.join(", ", overruled), spec.failuresToFail(),
                    spec.trialsPerLoad()));
        }
        return new SearchResult(spec, min, max, trials, found, upper, converged, notes, loads);
    }

    /** @return whether {@link SearchSpec#confirm()} judgements at {@code rate} all pass; stops at the first that fails */
    private boolean confirm(long rate, long shortfall) throws TransferException {
        for (int i = 0; i < spec.confirm(); i++) {
            if (!judgeLoad(SearchTrial.Phase.CONFIRM, rate, shortfall)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Judges one load: trials at {@code rate} until {@link LoadJudgement#decided}; the last trial
     * run is one of the deciding side (a failed one when the load failed).
     *
     * @return whether the load passed
     */
    private boolean judgeLoad(SearchTrial.Phase phase, long rate, long shortfall) throws TransferException {
        int first = trials.size() + 1;
        int passes = 0;
        int fails = 0;
        while (!LoadJudgement.decided(spec, passes, fails)) {
            if (runTrial(phase, rate, shortfall)) {
                passes++;
            } else {
                fails++;
            }
        }
        boolean passedLoad = fails < spec.failuresToFail();
        loads.add(new LoadJudgement(loads.size() + 1, phase, rate, first, passes + fails, fails, passedLoad));
        return passedLoad;
    }

    private boolean runTrial(SearchTrial.Phase phase, long rate, long shortfall) throws TransferException {
        observer.trialStarting(trials.size() + 1, phase, rate, lo, hi);
        TrialOutcome o = trial.run(rate);
        SearchTrial.Verdict v = SearchTrial.judge(o, spec.lossTolerancePercent(), shortfall, phase);
        trials.add(new SearchTrial(trials.size() + 1, phase, o, shortfall, v));
        LOG.debug("trial {} {} at {} bit/s: achieved {} bit/s, sent {}, lost {}: {}", trials.size(), phase.label(), rate,
                o.achievedBitsPerSecond(), o.sent(), o.lost(), v.label());
        return v == SearchTrial.Verdict.PASS;
    }

    /** @return the allowed shortfall with upper bound {@code hi}: the resolution plus one message per trial window */
    private long shortfallAt(long hi) {
        return resolutionAt(hi) + spec.messageShortfallBitsPerSecond(trial.messageBits());
    }

    /** @return {@code trial} in the strict search, where one trial is a judgement; {@code judgement} in the robust one */
    private String judgement() {
        return spec.strict() ? "trial" : "judgement";
    }

    private long resolutionAt(long hi) {
        return spec.resolution().bitsPerSecondAt(hi);
    }

    private String tolerance() {
        return java.math.BigDecimal.valueOf(spec.lossTolerancePercent()).stripTrailingZeros().toPlainString();
    }
}
