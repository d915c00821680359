package io.linerate.core.latency;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.sink.LatencyJson;
import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.testsupport.GoldenFiles;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Request/response rates from counts over the window, and their formats under two locales. */
class RrReportTest {
    private static final Locale ORIGINAL = Locale.getDefault();

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(ORIGINAL);
    }

    static RrReport report() {
        // 1500 + 500 transactions in 0.8 s: 2500 transactions/s in total, 1875 and 625 per flow
        return new RrReport(LatencyReportTest.FACTS, "tcp_rr", List.of(1500L, 500L), 800_000_000L,
                LatencyStatsTest.of(100, 200, 300, 400, 1000), 99, List.of(RrReport.CLOSED_LOOP_NOTE));
    }

    @Test
    void ratesAreTransactionsOverTheWindow() {
        RrReport r = report();
        assertThat(r.transactions()).isEqualTo(2000);
        assertThat(r.transactionsPerSecond()).hasValue(2500);
        assertThat(r.flowTransactionsPerSecond(0)).hasValue(1875);
        assertThat(r.flowTransactionsPerSecond(1)).hasValue(625);
        // whole transactions: not halved
        assertThat(r.stats().median()).hasValue(300);
    }

    @Test
    void aWindowWithoutLengthHasNoRate() {
        RrReport r = new RrReport(LatencyReportTest.FACTS, "tcp_crr", List.of(0L), 0, LatencyHistograms.create(), 99,
                List.of());
        assertThat(r.transactionsPerSecond()).isEmpty();
        assertThat(r.metrics(1)).isEmpty();
        assertThat(r.text()).contains("total: 0 transactions in 0.000000 s, - transactions/s\n")
                .contains("latency ns: mean - min - median - max - p99 - stddev - iter 0\n");
        assertThat(LatencyJson.rr(r).has("transactions_per_second")).isFalse();
    }

    @Test
    void transactionLatencyNeverExceedsTheSlowestTransactionAndStatesItsPrecision() {
        // {500, 700, 1000001} ns: HdrHistogram's slot of 1000001 is 999936..1000447 (512 wide in
        // [2^19, 2^20) at 3 digits); max and p99 are the exact largest transaction, 1000001, and the
        // median the 2nd of 3, 700, held exactly below 2048
        RrReport r = new RrReport(LatencyReportTest.FACTS, "tcp_rr", List.of(3L), 1_000_000_000L,
                LatencyStatsTest.of(500, 700, 1_000_001), 99, List.of());
        assertThat(r.text()).contains("# precision: HdrHistogram, 3 significant digits (values within 0.1 %); "
                        + "min and max exact, percentiles clamped to them\n")
                .contains(" min 500 median 700 max 1000001 p99 1000001 ");
        assertThat(LatencyJson.rr(r).toJson()).contains("\"max\":1000001.0,\"percentile_value\":1000001.0,")
                .contains("\"significant_digits\":3,");
        assertThat(r.metrics(1)).filteredOn(m -> m.name().equals("latency_p99")).extracting(Metric::value)
                .containsExactly(1_000_001.0);
    }

    @Test
    void metrics() {
        List<Metric> m = report().metrics(2.5);
        assertThat(m).extracting(Metric::name).containsExactly("transactions_per_second", "transactions_per_second",
                "transactions_per_second", "latency_p50", "latency_p99", "latency_mean");
        assertThat(m.get(0).value()).isEqualTo(2500);
        assertThat(m.get(0).better()).isEqualTo(Better.HIGHER);
        assertThat(m.get(0).labels()).containsEntry("flow", "all").containsEntry("test", "tcp_rr");
        assertThat(m.get(2).labels()).containsEntry("flow", "1");
        assertThat(m.get(4).value()).isEqualTo(1000);
        assertThat(m.get(4).better()).isEqualTo(Better.LOWER);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void golden(String locale) throws IOException {
        LatencyReportTest.setLocale(locale);
        GoldenFiles.assertMatches("latency/rr.txt", report().text());
        GoldenFiles.assertMatches("latency/rr.json", LatencyJson.rr(report()).toJson() + "\n");
    }
}
