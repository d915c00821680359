package io.linerate.core.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.TransferException;
import java.time.Duration;
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
}
