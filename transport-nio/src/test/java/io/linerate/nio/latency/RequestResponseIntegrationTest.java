package io.linerate.nio.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.RrSpec;
import io.linerate.core.latency.LatencyStats;
import io.linerate.core.latency.RrReport;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.tcp.TcpInfoSources;
import io.linerate.nio.PathFacts;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** TCP_RR and TCP_CRR over loopback: rates from counts over the window, one connection per CRR transaction. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RequestResponseIntegrationTest {
    static final RunFacts FACTS = new RunFacts("test", "d", "u", "c", "j", "o");

    static RrSpec spec(int flows, boolean crr, long rate) {
        return RrSpec.builder().family(AddressFamily.IPV4).flows(flows).requestBytes(64).responseBytes(200)
                .duration(Duration.ofMillis(300)).warmup(Duration.ofMillis(100)).crr(crr).rate(rate)
                .timeout(Duration.ofSeconds(5)).build();
    }

    @Test
    void rrRateIsCompletedTransactionsOverTheWindowAndKeepsItsConnections() throws Exception {
        RrResult r = RequestResponse.run(spec(2, false, 0), Clock.system(), FACTS);
        RrReport rep = r.report();
        assertThat(rep.test()).isEqualTo("tcp_rr");
        assertThat(rep.flowTransactions()).hasSize(2).allSatisfy(n -> assertThat(n).isNotNegative());
        long total = rep.flowTransactions().get(0) + rep.flowTransactions().get(1);
        assertThat(total).isPositive();
        assertThat(rep.transactions()).isEqualTo(total);
        assertThat(rep.windowNanos()).isPositive();
        assertThat(rep.transactionsPerSecond()).hasValue(total * 1e9 / rep.windowNanos());
        assertThat(rep.flowTransactionsPerSecond(1)).hasValue(rep.flowTransactions().get(1) * 1e9 / rep.windowNanos());
        // one connection per flow, kept for every transaction
        assertThat(r.accepts()).isEqualTo(2);
        // the server sent a response for every transaction a flow completed (and at most one more per flow)
        assertThat(r.served()).isBetween(r.completed(), r.completed() + 2);
        assertThat(r.completed()).isGreaterThanOrEqualTo(total);
        // the latency distribution holds exactly the transactions counted in the window
        assertThat(rep.latency().count()).isEqualTo(rep.transactions()).isPositive();
        // no reported latency lies outside the slowest and fastest transaction recorded
        LatencyStats st = rep.stats();
        assertThat(st.atPercentile().getAsDouble()).isLessThanOrEqualTo(st.max().getAsDouble());
        assertThat(st.median().getAsDouble()).isGreaterThanOrEqualTo(st.min().getAsDouble());
        assertThat(st.max().getAsDouble()).isEqualTo(rep.latency().max().getAsLong());
        // the closed-loop warning, then the connections' MSS: without a TCP_INFO source (no native layer in
        // this module's tests), derived as PathFactsTest checks, saying why it was not read
        assertThat(rep.notes()).containsExactly(RrReport.CLOSED_LOOP_NOTE, PathFacts.loopbackTcpMss(AddressFamily.IPV4)
                .map(m -> m.withUnreadBecause(TcpInfoSources.NO_SOURCE))
                .map(m -> "tcp mss " + m.bytes() + " B (" + m.derivation() + ")").orElseThrow());
    }

    @Test
    void aWindowWithoutTransactionsIsAnErrorThatSaysWhy() {
        // 1 transaction/s over 3 flows: each flow sends every 3 s, never inside a 300 ms window
        assertThatThrownBy(() -> RequestResponse.run(spec(3, false, 1), Clock.system(), FACTS))
                .isInstanceOf(io.linerate.core.TransferException.class)
                .hasMessage("tcp_rr: no transaction completed in the measured window of 300 ms; at 1 transactions/s "
                        + "over 3 flows each flow sends one request every 3000 ms: raise --rate or --duration");
    }

    @Test
    void crrOpensANewConnectionPerTransaction() throws Exception {
        RrResult r = RequestResponse.run(spec(2, true, 0), Clock.system(), FACTS);
        assertThat(r.report().test()).isEqualTo("tcp_crr");
        assertThat(r.completed()).isPositive();
        // every completed transaction was accepted as its own connection; a flow stopped mid-way
        // may have opened one more
        assertThat(r.accepts()).isBetween(r.completed(), r.completed() + 2);
        assertThat(r.report().transactions()).isPositive().isLessThanOrEqualTo(r.completed());
    }

    @Test
    void openLoopMeasuresFromTheScheduleAndSaysSo() throws Exception {
        long before = System.nanoTime();
        RrResult r = RequestResponse.run(spec(1, false, 2000), Clock.system(), FACTS);
        long after = System.nanoTime();
        assertThat(r.report().notes().get(0))
                .isEqualTo("open loop at 2000 transactions/s (one request every 500000 ns per flow): "
                        + "latency measured from each request's scheduled send time");
        assertThat(r.report().notes()).doesNotContain(RrReport.CLOSED_LOOP_NOTE);
        assertThat(r.report().latency().count()).isEqualTo(r.report().transactions()).isPositive();
        // an open-loop flow never sends ahead of its schedule: sends are 500 us apart at least,
        // all between the two readings around the run
        assertThat(r.completed()).isLessThanOrEqualTo(1 + (after - before) / 500_000);
        // the window is the schedule's (300 ms) and holds the requests due in it: at most 2000/s x 0.3 s + 1
        assertThat(r.report().windowNanos()).isEqualTo(300_000_000L);
        assertThat(r.report().transactions()).isLessThanOrEqualTo(601);
        assertThat(r.report().notes()).anySatisfy(n -> assertThat(n).startsWith("open loop: achieved ")
                .contains(" of the target 2000 transactions/s").contains("requests left late").contains("largest lateness"));
    }

    @Test
    void badSpecsNameTheValueAndRange() {
        assertThatThrownBy(() -> RrSpec.builder().flows(0).build()).hasMessage("flows 0 is out of range; allowed: 1..1024");
        assertThatThrownBy(() -> RrSpec.builder().requestBytes(0).build()).hasMessage("request size 0 bytes is out of range; allowed: 1..16777216");
        assertThatThrownBy(() -> RrSpec.builder().rate(-1).build())
                .hasMessage("rate -1 transactions/s is out of range; allowed: 0 (closed loop)..1000000");
        assertThatThrownBy(() -> RrSpec.builder().duration(Duration.ZERO).build()).hasMessage("duration 0 ms is out of range; allowed: > 0");
    }
}
