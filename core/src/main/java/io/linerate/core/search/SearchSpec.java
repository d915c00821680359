package io.linerate.core.search;

import java.time.Duration;
import java.util.Objects;

/**
 * The parameters of a rate search (RFC 2544 section 26.1, searched by bisection as TRex's NDR/PDR
 * search does): immutable, validated by {@link Builder#build()}. Rates in bit/s of payload,
 * decimal; times as {@link Duration}.
 */
public final class SearchSpec {
    /** The default trial length: 2 s. RFC 2544 asks for 60 s. */
    public static final Duration DEFAULT_TRIAL = Duration.ofSeconds(2);
    /** The trial length RFC 2544 section 26.1 asks for: 60 s. */
    public static final Duration RFC2544_TRIAL = Duration.ofSeconds(60);
    /** The shortest trial accepted: 200 ms. */
    public static final Duration MIN_TRIAL = Duration.ofMillis(200);
    /** The longest trial accepted: 1 hour. */
    public static final Duration MAX_TRIAL = Duration.ofHours(1);
    /** The fewest reporting intervals a trial must hold: 5. */
    public static final int MIN_INTERVALS_PER_TRIAL = 5;
    /** Reporting intervals per trial when no interval is given: 10. */
    public static final int DEFAULT_INTERVALS_PER_TRIAL = 10;
    /** The default bound on bisection trials: 30. */
    public static final int DEFAULT_MAX_TRIALS = 30;
    /** The default number of confirm trials at the found rate: 1. */
    public static final int DEFAULT_CONFIRM = 1;
    /**
     * The default most trials one offered load gets in the robust search: 3. The load fails when
     * more than half of them fail (2 of 3), as MLRsearch's goal exceed ratio of 50 %; see
     * {@link #trialsPerLoad()}.
     */
    public static final int DEFAULT_TRIALS_PER_LOAD = 3;
    /** The most trials per load accepted: 99. */
    public static final int MAX_TRIALS_PER_LOAD = 99;
    /** The default warm-up left out of each trial: 250 ms. */
    public static final Duration DEFAULT_WARMUP = Duration.ofMillis(250);
    /** The default minimum rate when none is given: this fraction of the maximum, 1 %. */
    public static final double DEFAULT_MIN_FRACTION = 0.01;

    /**
     * The fewest messages (datagrams, frames) a trial at the min or max rate must carry: 2. A rate
     * below {@link #minCarryingBitsPerSecond(long)} is refused before any trial runs.
     */
    public static final int MIN_MESSAGES_PER_TRIAL = 2;

    private final long minBitsPerSecond;
    private final long maxBitsPerSecond;
    private final Resolution resolution;
    private final int maxTrials;
    private final double lossTolerancePercent;
    private final int confirm;
    private final int trialsPerLoad;
    private final Duration trial;
    private final Duration interval;
    /** The interval as given, null when it is a tenth of the trial. */
    private final Duration givenInterval;
    private final Duration warmup;

    private SearchSpec(Builder b) {
        this.minBitsPerSecond = b.minBitsPerSecond;
        this.maxBitsPerSecond = b.maxBitsPerSecond;
        this.resolution = b.resolution;
        this.maxTrials = b.maxTrials;
        this.lossTolerancePercent = b.lossTolerancePercent;
        this.confirm = b.confirm;
        this.trialsPerLoad = b.trialsPerLoad;
        this.trial = b.trial;
        this.givenInterval = b.interval;
        this.interval = b.interval != null ? b.interval : b.trial.dividedBy(DEFAULT_INTERVALS_PER_TRIAL);
        this.warmup = b.warmup;
    }

    /**
     * @return a builder with the defaults: range from an unlimited trial, 1 % resolution, NDR, the
     *     robust search with up to 3 trials per load, 1 confirm judgement, 2 s trials
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * @return a builder holding this spec's values as they were given, so that one can be changed
     *     and the rest kept; an interval that was not given stays a tenth of the (new) trial
     */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.minBitsPerSecond = minBitsPerSecond;
        b.maxBitsPerSecond = maxBitsPerSecond;
        b.resolution = resolution;
        b.maxTrials = maxTrials;
        b.lossTolerancePercent = lossTolerancePercent;
        b.confirm = confirm;
        b.trialsPerLoad = trialsPerLoad;
        b.trial = trial;
        b.interval = givenInterval;
        b.warmup = warmup;
        return b;
    }

    /** @return the lowest rate searched, bit/s; 0 when it is {@value #DEFAULT_MIN_FRACTION} of the maximum */
    public long minBitsPerSecond() {
        return minBitsPerSecond;
    }

    /** @return the highest rate searched, bit/s; 0 when an unlimited trial finds it first */
    public long maxBitsPerSecond() {
        return maxBitsPerSecond;
    }

    /** @return when the search interval is narrow enough */
    public Resolution resolution() {
        return resolution;
    }

    /**
     * @return the bound on bisection loads over the whole search (confirm judgements not counted):
     *     trials in the strict search, load judgements of up to {@link #trialsPerLoad()} trials each in
     *     the robust one
     */
    public int maxTrials() {
        return maxTrials;
    }

    /** @return loss allowed in a passing trial, percent of what it sent; 0 for NDR, more for PDR */
    public double lossTolerancePercent() {
        return lossTolerancePercent;
    }

    /** @return whether this is a no-drop-rate search (tolerance 0) rather than a partial-drop-rate one */
    public boolean ndr() {
        return lossTolerancePercent == 0;
    }

    /**
     * @return confirm judgements at the found rate, all of which must pass, 1 or more: one trial
     *     each in the {@linkplain #strict() strict} search, a load's judgement of up to
     *     {@link #trialsPerLoad()} trials each in the robust one
     */
    public int confirm() {
        return confirm;
    }

    /**
     * The most trials that judge one offered load, {@code N}. The load fails when more than half of
     * its {@code N} trials fail ({@code K = ⌊N / 2⌋ + 1} of them) and passes when at least
     * {@code N − K + 1} pass; its trials run one after another and stop as soon as either is
     * certain. This is MLRsearch's rule (IETF BMWG draft "Multiple Loss Ratio Search") with a goal
     * exceed ratio of 50 % and a goal duration sum of {@code N} trials: a load is judged by the share
     * of its trials that failed, so one sporadic loss on a busy host does not move a bound. With
     * {@code N = 3} a load takes 2 trials when they agree and 3 when they do not.
     *
     * @return 1 for RFC 2544's strict search (one trial decides), up to {@value #MAX_TRIALS_PER_LOAD}
     */
    public int trialsPerLoad() {
        return trialsPerLoad;
    }

    /** @return whether one trial judges a load, as RFC 2544 section 26.1 does ({@link #trialsPerLoad()} 1) */
    public boolean strict() {
        return trialsPerLoad == 1;
    }

    /** @return {@code K = ⌊N / 2⌋ + 1}: the failed trials that make a load fail, {@code N} = {@link #trialsPerLoad()} */
    public int failuresToFail() {
        return trialsPerLoad / 2 + 1;
    }

    /** @return {@code N − K + 1}: the passed trials that make a load pass, after which it can no longer fail */
    public int passesToPass() {
        return trialsPerLoad - failuresToFail() + 1;
    }

    /** @return {@code strict} (RFC 2544) or {@code robust} (MLRsearch's rule, {@link #trialsPerLoad()} above 1) */
    public String mode() {
        return strict() ? "strict" : "robust";
    }

    /** @return the measured length of each trial, warm-up not included */
    public Duration trial() {
        return trial;
    }

    /** @return the reporting interval within each trial */
    public Duration interval() {
        return interval;
    }

    /** @return the warm-up before each trial's measured window, left out of it */
    public Duration warmup() {
        return warmup;
    }

    /**
     * The shortfall one message makes over a trial window: a trial counts whole messages, so at an
     * offered rate {@code r} its window of {@code T} seconds carries {@code ⌊r × T / b⌋} messages of
     * {@code b} bits (or one fewer, where the window's edges cut the pacing), and its achieved rate
     * {@code n × b / T} falls short of {@code r} by up to {@code b / T} with no fault of the sender.
     * {@link RateSearch} allows this on top of the resolution. For example a 1400 B payload (11200
     * bit) in a 500 ms trial: 11200 / 0.5 = 22400 bit/s.
     *
     * @param messageBits bits per message ({@link Trial#messageBits()}), 0 or more
     * @return {@code ⌈messageBits / T⌉} bit/s with {@code T} the trial length in seconds; 0 for 0
     */
    public long messageShortfallBitsPerSecond(long messageBits) {
        return ceilDiv(messageBits, trial);
    }

    /**
     * The lowest rate at which a trial carries {@value #MIN_MESSAGES_PER_TRIAL} messages:
     * {@code ⌈2 × messageBits / T⌉} bit/s, {@code T} the trial length in seconds. For example a
     * 1460 B payload (11680 bit) in a 200 ms trial: 2 × 11680 / 0.2 = 116800 bit/s.
     *
     * @param messageBits bits per message ({@link Trial#messageBits()}), 0 or more
     * @return bit/s; 0 for 0
     */
    public long minCarryingBitsPerSecond(long messageBits) {
        return ceilDiv(MIN_MESSAGES_PER_TRIAL * messageBits, trial);
    }

    /**
     * Refuses a given min or max rate at which a trial carries fewer than
     * {@value #MIN_MESSAGES_PER_TRIAL} messages: a trial there sends nothing or one message, and
     * its loss and achieved rate say nothing. The max must be above {@link #minCarryingBitsPerSecond}
     * so that a min at or above that rate fits below it. Rates left to be derived (0) are not checked
     * here; {@link RateSearch} raises a derived min to that rate.
     *
     * @param messageBits bits per message ({@link Trial#messageBits()}); 0 checks nothing
     * @throws IllegalArgumentException naming the rate, the trial, the message size and the smallest
     *     allowed rate
     */
    public void checkCarries(long messageBits) {
        long floor = minCarryingBitsPerSecond(messageBits);
        if (messageBits <= 0) {
            return;
        }
        if (minBitsPerSecond != 0 && minBitsPerSecond < floor) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "min rate %d bit/s is out of range "
                    + "for a trial of %d ms and messages of %s: a trial at it carries fewer than %d messages (%d bit/s x "
                    + "%s s = %s bit); allowed: %d bit/s or more (%d x %d bit / %s s), or a longer trial",
                    minBitsPerSecond, trial.toMillis(), messageSize(messageBits), MIN_MESSAGES_PER_TRIAL, minBitsPerSecond,
                    seconds(), bitsIn(minBitsPerSecond), floor, MIN_MESSAGES_PER_TRIAL, messageBits, seconds()));
        }
        if (maxBitsPerSecond != 0 && maxBitsPerSecond <= floor) {
            throw new IllegalArgumentException(String.format(java.util.Locale.ROOT, "max rate %d bit/s is out of range "
                    + "for a trial of %d ms and messages of %s: the search needs a min rate below it at which a trial "
                    + "carries %d messages, %d bit/s or more (%d x %d bit / %s s); allowed: more than %d bit/s, or a "
                    + "longer trial", maxBitsPerSecond, trial.toMillis(), messageSize(messageBits), MIN_MESSAGES_PER_TRIAL,
                    floor, MIN_MESSAGES_PER_TRIAL, messageBits, seconds(), floor));
        }
    }

    /** @return {@code 1460 B} for a whole number of bytes, else {@code 11681 bit} */
    static String messageSize(long messageBits) {
        return messageBits % 8 == 0 ? messageBits / 8 + " B" : messageBits + " bit";
    }

    private String seconds() {
        return java.math.BigDecimal.valueOf(trial.toNanos(), 9).stripTrailingZeros().toPlainString();
    }

    private String bitsIn(long bitsPerSecond) {
        return java.math.BigDecimal.valueOf(bitsPerSecond).multiply(java.math.BigDecimal.valueOf(trial.toNanos(), 9))
                .stripTrailingZeros().toPlainString();
    }

    /** @return ⌈bits × 10^9 / trial ns⌉, exact for any bits a message can have */
    private static long ceilDiv(long bits, Duration trial) {
        java.math.BigInteger n = java.math.BigInteger.valueOf(bits).multiply(java.math.BigInteger.valueOf(1_000_000_000L));
        java.math.BigInteger d = java.math.BigInteger.valueOf(trial.toNanos());
        java.math.BigInteger[] qr = n.divideAndRemainder(d);
        return qr[0].longValueExact() + (qr[1].signum() > 0 ? 1 : 0);
    }

    @Override
    public String toString() {
        return "search min=" + (minBitsPerSecond == 0 ? "1% of max" : minBitsPerSecond + "bit/s") + " max="
                + (maxBitsPerSecond == 0 ? "unlimited trial" : maxBitsPerSecond + "bit/s") + " resolution=" + resolution
                + " maxTrials=" + maxTrials + " lossTolerance=" + lossTolerancePercent + "% confirm=" + confirm
                + " mode=" + mode() + " trialsPerLoad=" + trialsPerLoad
                + " trial=" + trial.toMillis() + "ms interval=" + interval.toMillis() + "ms warmup=" + warmup.toMillis() + "ms";
    }

    /** Mutable builder; {@link #build()} validates. Not thread-safe. */
    public static final class Builder {
        private long minBitsPerSecond;
        private long maxBitsPerSecond;
        private Resolution resolution = Resolution.DEFAULT;
        private int maxTrials = DEFAULT_MAX_TRIALS;
        private double lossTolerancePercent;
        private int confirm = DEFAULT_CONFIRM;
        private int trialsPerLoad = DEFAULT_TRIALS_PER_LOAD;
        private Duration trial = DEFAULT_TRIAL;
        private Duration interval;
        private Duration warmup = DEFAULT_WARMUP;

        private Builder() {}

        /** @param v bit/s; 0 (the default) for {@value SearchSpec#DEFAULT_MIN_FRACTION} of the maximum */
        public Builder minBitsPerSecond(long v) {
            this.minBitsPerSecond = v;
            return this;
        }

        /** @param v bit/s; 0 (the default) for what an unlimited trial achieves */
        public Builder maxBitsPerSecond(long v) {
            this.maxBitsPerSecond = v;
            return this;
        }

        public Builder resolution(Resolution v) {
            this.resolution = Objects.requireNonNull(v, "resolution");
            return this;
        }

        /** @param v 1..1000 */
        public Builder maxTrials(int v) {
            this.maxTrials = v;
            return this;
        }

        /** @param v percent of what a trial sent, 0 (NDR) up to but excluding 100 */
        public Builder lossTolerancePercent(double v) {
            this.lossTolerancePercent = v;
            return this;
        }

        /** @param v 1..100 */
        public Builder confirm(int v) {
            this.confirm = v;
            return this;
        }

        /** @param v the most trials that judge one load, 1 (strict, RFC 2544) ..{@value SearchSpec#MAX_TRIALS_PER_LOAD} */
        public Builder trialsPerLoad(int v) {
            this.trialsPerLoad = v;
            return this;
        }

        /** RFC 2544's strict search: one trial judges a load ({@link #trialsPerLoad(int)} 1). */
        public Builder strict() {
            return trialsPerLoad(1);
        }

        /** @param v 200 ms..1 h, and at least 5 reporting intervals */
        public Builder trial(Duration v) {
            this.trial = Objects.requireNonNull(v, "trial");
            return this;
        }

        /** @param v the reporting interval, 10 ms..trial / 5, or null (the default) for a tenth of the trial */
        public Builder interval(Duration v) {
            this.interval = v;
            return this;
        }

        /** @param v 0 or more, at most 1 h */
        public Builder warmup(Duration v) {
            this.warmup = Objects.requireNonNull(v, "warmup");
            return this;
        }

        /**
         * @return the validated spec
         * @throws IllegalArgumentException naming the first bad value and its allowed range
         */
        public SearchSpec build() {
            return SearchSpecRanges.check(new SearchSpec(this));
        }
    }

    /**
     * @throws IllegalArgumentException when an absolute resolution is 50 % of the max rate or more
     *     (a percentage is range-checked by {@link Resolution} itself)
     */
    static void checkResolution(Resolution r, long maxBitsPerSecond) {
        if (r.absoluteBitsPerSecond() != 0 && r.absoluteBitsPerSecond() * 2 >= maxBitsPerSecond) {
            throw new IllegalArgumentException("resolution " + r.absoluteBitsPerSecond() + " bit/s is 50% of the max rate "
                    + maxBitsPerSecond + " bit/s or more; allowed: more than 0 and less than "
                    + (maxBitsPerSecond + 1) / 2 + " bit/s");
        }
    }
}
