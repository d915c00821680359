package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.IntervalSample;
import io.linerate.core.TcpIntervalSample;
import io.linerate.peers.agent.internal.wire.TcpIntervalsJson;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class FarIntervalsJoinTest {

    private static IntervalSample local(int i, boolean omitted) {
        return new IntervalSample(i * 100L, (i + 1) * 100L, 1000L + i, 0, 0, omitted);
    }

    /** Figures that say which far interval they came from: its retransmits. */
    private static TcpIntervalsJson.Entry far(int i, boolean omitted) {
        return new TcpIntervalsJson.Entry(i * 100L + 7, (i + 1) * 100L + 7, omitted,
                Optional.of(new TcpIntervalSample(i, 1448L * (i + 1), 50, 5, -1, -1)));
    }

    @Test
    void theKthIntervalOfEachPhaseGetsTheFarEndsKthOfThatPhase() {
        // this host: 2 warm-up, 3 window; the agent: 2 warm-up, 3 window
        List<IntervalSample> here = List.of(local(0, true), local(1, true), local(2, false), local(3, false), local(4, false));
        List<TcpIntervalsJson.Entry> there = List.of(far(0, true), far(1, true), far(2, false), far(3, false), far(4, false));

        FarIntervalsJoin.Joined j = FarIntervalsJoin.join(here, there);

        assertThat(j.joined()).isEqualTo(5);
        assertThat(j.intervals()).extracting(s -> s.tcp().orElseThrow().retransmits()).containsExactly(0L, 1L, 2L, 3L, 4L);
        // this host's own counts and times stay
        assertThat(j.intervals()).extracting(IntervalSample::bytes).containsExactly(1000L, 1001L, 1002L, 1003L, 1004L);
        assertThat(j.intervals()).extracting(IntervalSample::startNanos).containsExactly(0L, 100L, 200L, 300L, 400L);
    }

    @Test
    void aWindowOneIntervalShorterHereLeavesTheFarEndsLastOver() {
        // the receiver's window ended at its last data, one interval before the sender's
        List<IntervalSample> here = List.of(local(0, true), local(1, false), local(2, false));
        List<TcpIntervalsJson.Entry> there = List.of(far(0, true), far(1, false), far(2, false), far(3, false));

        FarIntervalsJoin.Joined j = FarIntervalsJoin.join(here, there);

        assertThat(j.joined()).isEqualTo(3);
        assertThat(j.intervals()).extracting(s -> s.tcp().orElseThrow().retransmits()).containsExactly(0L, 1L, 2L);
    }

    @Test
    void phasesAlignEvenWhenTheWarmUpsDifferInCount() {
        // this host has one warm-up interval more; its window still starts at the far end's window
        List<IntervalSample> here = List.of(local(0, true), local(1, true), local(2, false), local(3, false));
        List<TcpIntervalsJson.Entry> there = List.of(far(0, true), far(1, false), far(2, false));

        FarIntervalsJoin.Joined j = FarIntervalsJoin.join(here, there);

        assertThat(j.joined()).isEqualTo(3);
        assertThat(j.intervals().get(0).tcp().orElseThrow().retransmits()).isZero();
        assertThat(j.intervals().get(1).tcp()).isEmpty();
        assertThat(j.intervals().get(2).tcp().orElseThrow().retransmits()).isEqualTo(1);
        assertThat(j.intervals().get(3).tcp().orElseThrow().retransmits()).isEqualTo(2);
    }

    @Test
    void aFarIntervalWithoutFiguresLeavesItsCounterpartWithout() {
        List<IntervalSample> here = List.of(local(0, false), local(1, false));
        List<TcpIntervalsJson.Entry> there = List.of(new TcpIntervalsJson.Entry(0, 100, false, Optional.empty()), far(1, false));

        FarIntervalsJoin.Joined j = FarIntervalsJoin.join(here, there);

        assertThat(j.joined()).isOne();
        assertThat(j.intervals().get(0).tcp()).isEmpty();
        assertThat(j.intervals().get(1).tcp().orElseThrow().retransmits()).isOne();
    }
}
