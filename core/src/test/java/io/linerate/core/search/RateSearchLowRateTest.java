package io.linerate.core.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.TransferException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The search at rates where a trial carries few messages, against fake trials that count whole messages. */
class RateSearchLowRateTest {
    /** 1400 B of payload: 11200 bit per datagram. */
    private static final long BITS = 1400 * 8;
    private static final Duration TRIAL = Duration.ofMillis(500);

    /**
     * A lossless sender that paces every datagram on time, up to {@code capBitsPerSecond}, over a
     * 500 ms window: it sends {@code ⌊min(offered, cap) × 0.5 / 11200⌋} datagrams and its achieved
     * rate is that count × 11200 / 0.5, as a real trial counts it.
     */
    private static Trial quantised(long capBitsPerSecond) {
        return new Trial() {
            @Override
            public TrialOutcome run(long offered) {
                long rate = Math.min(offered, capBitsPerSecond);
                long sent = rate / 2 / BITS;
                return new TrialOutcome(offered, sent * BITS * 2.0, sent, sent, 0);
            }

            @Override
            public long messageBits() {
                return BITS;
            }
        };
    }

    private static SearchSpec.Builder spec(long min, long max) {
        return SearchSpec.builder().minBitsPerSecond(min).maxBitsPerSecond(max).trial(TRIAL);
    }

    @Test
    void oneDatagramPerTrialWindowIsTheShortfallOfCountingWholeDatagrams() {
        // 11200 bit / 0.5 s = 22400 bit/s
        assertThat(spec(0, 0).build().messageShortfallBitsPerSecond(BITS)).isEqualTo(22_400L);
        // 11200 bit / 2 s = 5600 bit/s; and 1 bit / 2 s rounds up to 1 bit/s
        assertThat(SearchSpec.builder().build().messageShortfallBitsPerSecond(BITS)).isEqualTo(5_600L);
        assertThat(SearchSpec.builder().build().messageShortfallBitsPerSecond(1)).isEqualTo(1L);
        assertThat(SearchSpec.builder().build().messageShortfallBitsPerSecond(0)).isZero();
    }

    @Test
    void losslessTrialsAtLowRatesPassThoughTheirAchievedRateIsQuantisedToWholeDatagrams() throws TransferException {
        SearchResult r = RateSearch.run(spec(50_000, 1_000_000).build(), quantised(Long.MAX_VALUE));

        // every trial is lossless and paced on time: all pass, so the found rate is within the
        // resolution (1% of the max, 10000 bit/s) below the max
        assertThat(r.trials()).allSatisfy(t -> assertThat(t.verdict()).isEqualTo(SearchTrial.Verdict.PASS));
        assertThat(r.found().getAsLong()).isGreaterThanOrEqualTo(990_000L).isLessThan(1_000_000L);
        // the first trial at 50000 + 950000 / 2 = 525000 bit/s sends ⌊525000 × 0.5 / 11200⌋ = 23 datagrams,
        // 23 × 22400 = 515200 bit/s; its allowed shortfall is 1% of 1 Mbit/s + one datagram = 10000 + 22400
        SearchTrial first = r.trials().get(0);
        assertThat(first.outcome().offeredBitsPerSecond()).isEqualTo(525_000L);
        assertThat(first.outcome().sent()).isEqualTo(23L);
        assertThat(first.allowedShortfallBitsPerSecond()).isEqualTo(32_400L);
        // the worst case is just below a whole datagram: at 559999 bit/s ⌊559999 × 0.5 / 11200⌋ = 24 datagrams
        // = 537600 bit/s, 22399 short: more than the resolution of 10000 alone, within 10000 + 22400
        assertThat(SearchTrial.judge(quantised(Long.MAX_VALUE).run(559_999), 0, first.allowedShortfallBitsPerSecond()))
                .isEqualTo(SearchTrial.Verdict.PASS);
        assertThat(SearchTrial.judge(quantised(Long.MAX_VALUE).run(559_999), 0, 10_000))
                .isEqualTo(SearchTrial.Verdict.SHORTFALL);
    }

    @Test
    void aSenderThatCannotOfferTheRateStillFailsAsShortfall() throws TransferException {
        SearchResult r = RateSearch.run(spec(50_000, 1_000_000).build(), quantised(600_000));

        // capped at 600000 bit/s the sender sends ⌊600000 × 0.5 / 11200⌋ = 26 datagrams = 582400 bit/s at any
        // offered rate above it; that passes only while offered − 582400 ≤ 1% of the upper bound + 22400, and
        // the upper bound stays at or below 1 Mbit/s: offered ≤ 582400 + 10000 + 22400 = 614800. At or below
        // 600000 bit/s the shortfall is under one datagram (22400), so those pass: found ≥ 600000 − 1% of hi
        long found = r.found().getAsLong();
        assertThat(found).isLessThanOrEqualTo(614_800L).isGreaterThanOrEqualTo(590_000L);
        assertThat(r.trials()).anySatisfy(t -> assertThat(t.verdict()).isEqualTo(SearchTrial.Verdict.SHORTFALL));
    }

    /** A lossless sender of {@code bits}-bit messages, paced on time over a 2 s window, that counts its trials. */
    private static Trial counted(long bits, AtomicInteger runs) {
        return new Trial() {
            @Override
            public TrialOutcome run(long offered) {
                runs.incrementAndGet();
                long sent = offered * 2 / bits;
                return new TrialOutcome(offered, sent * bits / 2.0, sent, sent, 0);
            }

            @Override
            public long messageBits() {
                return bits;
            }
        };
    }

    @Test
    void aMinRateAtWhichATrialCarriesFewerThanTwoDatagramsIsRefusedBeforeAnyTrial() {
        AtomicInteger runs = new AtomicInteger();
        // 1460 B = 11680 bit; 2 datagrams in 0.2 s need 2 × 11680 / 0.2 = 116800 bit/s; 1000 bit/s × 0.2 s = 200 bit
        SearchSpec s = SearchSpec.builder().minBitsPerSecond(1000).maxBitsPerSecond(3000).trial(Duration.ofMillis(200)).build();
        assertThat(s.minCarryingBitsPerSecond(11_680)).isEqualTo(116_800L);
        assertThatThrownBy(() -> RateSearch.run(s, counted(11_680, runs))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("min rate 1000 bit/s is out of range for a trial of 200 ms and messages of 1460 B: a trial at it "
                        + "carries fewer than 2 messages (1000 bit/s x 0.2 s = 200 bit); allowed: 116800 bit/s or more "
                        + "(2 x 11680 bit / 0.2 s), or a longer trial");
        assertThat(runs).hasValue(0);
    }

    @Test
    void aMaxRateThatLeavesNoRoomForAMinCarryingTwoDatagramsIsRefusedBeforeAnyTrial() {
        AtomicInteger runs = new AtomicInteger();
        // 2 s trial: 2 × 11680 / 2 = 11680 bit/s is the lowest min; the max must be above it
        SearchSpec s = SearchSpec.builder().maxBitsPerSecond(11_680).build();
        assertThatThrownBy(() -> RateSearch.run(s, counted(11_680, runs))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("max rate 11680 bit/s is out of range for a trial of 2000 ms and messages of 1460 B: the search "
                        + "needs a min rate below it at which a trial carries 2 messages, 11680 bit/s or more (2 x 11680 bit "
                        + "/ 2 s); allowed: more than 11680 bit/s, or a longer trial");
        assertThat(runs).hasValue(0);
    }

    @Test
    void theDefaultMinIsRaisedToTheLowestRateThatCarriesTwoDatagrams() throws TransferException {
        AtomicInteger runs = new AtomicInteger();
        SearchResult r = RateSearch.run(SearchSpec.builder().maxBitsPerSecond(50_000).build(), counted(11_680, runs));

        // 1% of 50000 = 500 bit/s carries no datagram in 2 s; the min is 2 × 11680 / 2 = 11680 bit/s instead,
        // and the first trial is its middle with the max: 11680 + (50000 − 11680) / 2 = 30840 bit/s
        assertThat(r.minBitsPerSecond()).isEqualTo(11_680L);
        assertThat(r.trials().get(0).outcome().offeredBitsPerSecond()).isEqualTo(30_840L);
        // lossless and paced on time: every trial passes (allowed shortfall ≥ one datagram, 11680 / 2 = 5840 bit/s)
        assertThat(r.trials()).allSatisfy(t -> assertThat(t.verdict()).isEqualTo(SearchTrial.Verdict.PASS));
        assertThat(r.found()).isPresent();
    }

    @Test
    void aMinNotBelowTheMaxSaysWhereEachCameFrom() {
        // no message size: the default min is 1% of 1 bit/s, raised to 1 bit/s, and the max of 1 bit/s was given
        Trial noSize = offered -> new TrialOutcome(offered, offered == 0 ? 100 : offered, 1, 1, 0);
        assertThatThrownBy(() -> RateSearch.run(SearchSpec.builder().maxBitsPerSecond(1).build(), noSize))
                .hasMessage("min rate 1 bit/s (1% of the max, at least 1 bit/s) is not below the max rate 1 bit/s (given); "
                        + "allowed: min < max");
        // the unlimited trial achieved 100 bit/s, below the given min of 500
        assertThatThrownBy(() -> RateSearch.run(SearchSpec.builder().minBitsPerSecond(500).build(), noSize))
                .hasMessage("min rate 500 bit/s (given) is not below the max rate 100 bit/s that the unlimited trial "
                        + "achieved; allowed: min < max");
    }

    @Test
    void aMinTheSenderCannotOfferEndsTheSearchSayingSoAndSuggestingALowerMin() throws TransferException {
        // max 1 Tbit/s given, so the default min is 1% of it, 10 Gbit/s; a lossless sender of 1460 B (11680 bit)
        // datagrams that tops out at 5 Gbit/s sends ⌊5e9 × 0.2 / 11680⌋ = 85616 in a 200 ms trial at any higher
        // offered rate: 85616 × 11680 / 0.2 = 4999974400 bit/s, short of 10 Gbit/s by far more than 1% + one datagram
        long bits = 11_680;
        Trial capped = new Trial() {
            @Override
            public TrialOutcome run(long offered) {
                long sent = Math.min(offered, 5_000_000_000L) / 5 / bits;
                return new TrialOutcome(offered, sent * bits * 5.0, sent, sent, 0);
            }

            @Override
            public long messageBits() {
                return bits;
            }
        };
        SearchResult r = RateSearch.run(SearchSpec.builder().maxBitsPerSecond(1_000_000_000_000L)
                .trial(Duration.ofMillis(200)).build(), capped);

        assertThat(r.found()).isEmpty();
        assertThat(r.minBitsPerSecond()).isEqualTo(10_000_000_000L);
        assertThat(r.trials().get(r.trials().size() - 1).verdict()).isEqualTo(SearchTrial.Verdict.SHORTFALL);
        assertThat(r.notes()).anySatisfy(n -> assertThat(n).startsWith("even the min rate 10000000000 bit/s failed a "
                + "confirm judgement: the sender could not offer it, achieving 4999974400 bit/s").endsWith("the rate it can "
                + "offer is below the min (1% of the max, at least 1 bit/s): give a lower --min-rate"));
        assertThat(SearchFormat.foundLine(r)).startsWith("NDR not found: even the min rate 10000.000 Mbit/s failed its "
                + "confirm judgement: the sender could not offer it (achieved 4999.974 Mbit/s").endsWith("a lower --min-rate "
                + "lets the search start where it can");
        assertThat(SearchFormat.failReason(r)).isEqualTo("even the min rate failed: the sender could not offer it");
    }
}
