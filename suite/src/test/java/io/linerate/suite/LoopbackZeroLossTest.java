package io.linerate.suite;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.search.SearchResult;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.search.SearchTrial;
import io.linerate.core.search.TrialOutcome;
import io.linerate.core.spi.Transport;
import io.linerate.suite.LoopbackSuite.Marker;
import io.linerate.suite.LoopbackSuite.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The suite's zero-loss search on loopback. Asserts identities that hold on a busy host: the found
 * rate is at most the max, every trial's counts add up, TCP markers get no search; never a rate.
 */
class LoopbackZeroLossTest {
    private static final LoopbackSuite.Config QUICK = LoopbackSuite.Config.builder()
            .markers(List.of(Marker.UDP4, Marker.TCP4)).duration(Duration.ofMillis(200)).warmup(Duration.ofMillis(50))
            .interval(Duration.ofMillis(50)).payloadBytes(1220).tcpPayloadBytes(1220).build();

    @Test
    void eachValidUdpOutcomeGetsASearchWhoseTrialsAddUpAndTcpNone() throws TransferException {
        Transport nio = Transports.select(null, QUICK.spec(Marker.UDP4));
        // 200 ms trials at 4 % resolution keep this short
        SearchSpec s = SearchSpec.builder().trial(Duration.ofMillis(200)).warmup(Duration.ofMillis(50))
                .resolution(io.linerate.core.search.Resolution.percent(4)).build();
        LoopbackZeroLoss z = new LoopbackZeroLoss(nio, Clock.system(), s);
        List<Outcome> outcomes = new ArrayList<>();
        new LoopbackSuite(nio, Clock.system()).run(QUICK, outcomes::add);

        Optional<SearchResult> udp = z.run(QUICK, outcomes.get(0));
        assertThat(z.run(QUICK, outcomes.get(1))).isEmpty();
        assertThat(udp).isPresent();
        SearchResult r = udp.get();
        assertThat(r.maxFromCalibration()).isTrue();
        assertThat(r.trials().get(0).phase()).isEqualTo(SearchTrial.Phase.CALIBRATION);
        for (SearchTrial t : r.trials()) {
            TrialOutcome o = t.outcome();
            assertThat(o.sent()).isEqualTo(o.received() + o.lost());
        }
        // the bisection loads of all rounds stay within max trials (30 by default), each judged by 2 or 3 trials (a
        // load is decided by 2 that agree), and at least one confirm trial ran
        assertThat(r.loads()).filteredOn(l -> l.phase() == SearchTrial.Phase.SEARCH).hasSizeLessThanOrEqualTo(30)
                .allSatisfy(l -> assertThat(l.trials()).isBetween(2, 3));
        assertThat(r.trials()).filteredOn(t -> t.phase() == SearchTrial.Phase.CONFIRM).isNotEmpty();
        r.found().ifPresent(f -> assertThat(f).isLessThanOrEqualTo(r.maxBitsPerSecond()).isGreaterThanOrEqualTo(
                r.minBitsPerSecond()));
    }

    @Test
    void skippedAndInvalidOutcomesGetNoSearch() throws TransferException {
        Transport nio = Transports.select(null, QUICK.spec(Marker.UDP4));
        LoopbackZeroLoss z = new LoopbackZeroLoss(nio, Clock.system(),
                LoopbackZeroLoss.defaultSearch(QUICK, LoopbackZeroLoss.DEFAULT_TRIAL));
        assertThat(z.run(QUICK, new Outcome.Skipped(Marker.UDP4_FRAG, 1, "no fragments here"))).isEmpty();
        assertThat(z.run(QUICK, new Outcome.Failed(Marker.UDP6, 1, "port in use", true))).isEmpty();
    }

    @Test
    void theHeaderSaysWhatTheSuiteUsedAndExplainsUnlimitedUdpLossOnlyWhereItApplies() {
        Transport nio = Transports.select(null, QUICK.spec(Marker.UDP4));
        LoopbackZeroLoss z = new LoopbackZeroLoss(nio, Clock.system(),
                LoopbackZeroLoss.defaultSearch(QUICK, LoopbackZeroLoss.DEFAULT_TRIAL));
        assertThat(z.trialLine()).startsWith("zero-loss search (RFC 2544 section 26.1 NDR) of each udp marker: trials of "
                + "0.500 s after 0.050 s warm-up, resolution 1% of the upper bound, 1 confirm judgement, a load fails when 2 "
                + "of up to 3 trials fail (robust, MLRsearch), max rate")
                .endsWith("shorter than RFC 2544's 60 s, for a suite that takes seconds");
        assertThat(LoopbackZeroLoss.unlimitedUdpLossNote(QUICK)).hasValueSatisfying(n -> assertThat(n)
                .contains("the sender outruns the receiver on a shared host").contains("--zero-loss"));
        LoopbackSuite.Config paced = LoopbackSuite.Config.builder().markers(QUICK.markers()).rateBitsPerSecond(100_000_000)
                .tcpPayloadBytes(1220).build();
        LoopbackSuite.Config tcpOnly = LoopbackSuite.Config.builder().markers(List.of(Marker.TCP6)).tcpPayloadBytes(1220)
                .build();
        assertThat(LoopbackZeroLoss.unlimitedUdpLossNote(paced)).isEmpty();
        assertThat(LoopbackZeroLoss.unlimitedUdpLossNote(tcpOnly)).isEmpty();
    }
}
