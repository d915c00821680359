package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.sink.MetricJson;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MetricDefaultsTest {

    @Test
    void aCountOfRetransmittedSegmentsGetsKperfsReportOnlyPolicy() {
        // kperf's line for its tcp.retransmits, docs/metrics.md section 3: no regression key
        assertThat(MetricJson.defaultPolicy("tcp.retransmits", "segments", Better.LOWER, false))
                .isEqualTo("{\"name\":\"tcp.retransmits\",\"summarize\":\"max\"}");
        assertThat(MetricDefaults.isRetransmitCount("tcp4_retransmits", "segments")).isTrue();
        // a rate of retransmits keeps the gating default
        assertThat(MetricDefaults.isRetransmitCount("tcp_retrans_rate", "1/s")).isFalse();
        assertThat(MetricJson.defaultPolicy("tcp_retrans_rate", "1/s", Better.LOWER, false)).contains("\"regression\"");
    }

    @Test
    void namesAreSplitAtSeparatorsAndCamelCase() {
        assertThat(MetricDefaults.words("tcp_retrans_rate")).containsExactly("tcp", "retrans", "rate");
        assertThat(MetricDefaults.words("eth0.rx-drop:rate/total")).containsExactly("eth0", "rx", "drop", "rate", "total");
        assertThat(MetricDefaults.words("rxDropRate")).containsExactly("rx", "drop", "rate");
        assertThat(MetricDefaults.words("udp4_frag_mbps")).containsExactly("udp4", "frag", "mbps");
    }

    // expected directions by docs/metrics.md section 3, read off the rule by hand:
    // a bad name word first, then the unit, otherwise unknown
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "tcp_retrans_rate|      |lower",     // word retrans
            "tcp_retrans_rate|1/s   |lower",     // word retrans, whatever the unit
            "drop_rate       |frames/s|lower",   // word drop beats the throughput unit
            "rx_errors       |      |lower",     // errors starts with error
            "tcp_retransmits |      |lower",
            "udp4_lost_pct   |%     |lower",
            "frame_loss_rate |frames/s|lower",
            "udp4_jitter_ms  |ms    |lower",
            "latency_p99     |ns    |lower",
            "half_rtt        |      |lower",
            "queue_delay     |      |lower",
            "rxDropRate      |pps   |lower",     // camelCase word drop
            "tcp4_mbps       |Mbit/s|higher",
            "throughput      |Gbit/s|higher",
            "gloss_mbps      |Mbit/s|higher",    // loss inside a word is no word
            "raw_rx_frames_per_s|frames/s|higher",
            "transactions_per_second|transactions/s|higher",
            "copy_rate       |MB/s  |higher",
            "goodput         |Mbits/sec|higher",
            "cpu_util        |%     |lower",
            "setup_time      |us    |lower",
            "setup_time      |µs    |lower",
            "tcp4_cpu_us_per_kb|us/KiB|lower",   // a time per amount of data: service demand
            "insns_per_byte  |instructions/B|lower",
            "frame_cost      |ns/frame|lower",
            "copy_rate       |KiB/s |higher",    // an amount per time is a throughput, not a cost
            "tx_rate         |      |none",      // "rate" alone says nothing
            "throughput      |      |none",      // no unit, no bad word
            "tcp4_mbps       |      |none",      // the name's suffix is not a unit
            "context_switches|      |none",
            "cycles          |cycles|none"})
    void directionByBadWordsThenUnit(String name, String unit, String expected) {
        Optional<Better> d = MetricDefaults.direction(name.strip(), unit == null ? "" : unit.strip());
        assertThat(d.map(Better::label).orElse("none")).isEqualTo(expected);
    }

    @Test
    void lossInPercentIsJudgedInPercentagePointsAndJitterIsAdvisory() {
        assertThat(MetricDefaults.isLossPercent("udp4_lost_pct", "%")).isTrue();
        assertThat(MetricDefaults.isLossPercent("frame_drop_pct", "%")).isTrue();
        assertThat(MetricDefaults.isLossPercent("raw_lost_frames", "frames")).isFalse();
        assertThat(MetricDefaults.isLossPercent("cpu_util", "%")).isFalse();
        assertThat(MetricDefaults.isAdvisory("udp4_jitter_ms")).isTrue();
        assertThat(MetricDefaults.isAdvisory("udp4_lost_pct")).isFalse();
        // the word cpu: service demand follows what else the host runs
        assertThat(MetricDefaults.isAdvisory("tcp4_cpu_us_per_kb")).isTrue();
        assertThat(MetricDefaults.isAdvisory("tcp4_instructions_per_byte")).isFalse();
        assertThat(MetricDefaults.isAdvisory("cpuset_mbps")).isFalse();
        // an extreme or a spread of one run's samples: ping-pong's max, min and stddev
        for (String name : List.of("latency_max", "latency_min", "latency_stddev", "rtt_stdev", "maxLatency", "latency_p100")) {
            assertThat(MetricDefaults.isAdvisory(name)).as(name).isTrue();
        }
        for (String name : List.of("latency_mean", "latency_p50", "latency_p99", "latency_p99.9", "maximal_mbps",
                "transactions_per_second", "raw_lost_frames", "tcp4_ndr_mbps", "udp4_sweep_loss_pct",
                // an extreme of a throughput is no latency: it gates
                "max_throughput_mbps", "min_rate_mbps")) {
            assertThat(MetricDefaults.isAdvisory(name)).as(name).isFalse();
        }
        assertThat(MetricJson.defaultPolicy("udp4_lost_pct", "%", Better.LOWER, false)).isEqualTo(
                "{\"name\":\"udp4_lost_pct\",\"regression\":{\"better\":\"lower\",\"compare\":\"p50\",\"relative_tolerance\":0.0},"
                        + "\"summarize\":\"distribution\",\"absolute_tolerance\":1.0}");
        assertThat(MetricJson.defaultPolicy(
                Metric.of("udp4_jitter_ms", 0.01, "ms", 1, Better.LOWER))).isEqualTo(
                "{\"name\":\"udp4_jitter_ms\",\"regression\":{\"better\":\"lower\",\"compare\":\"p50\",\"relative_tolerance\":0.05},"
                        + "\"summarize\":\"distribution\",\"advisory\":true}");
    }
}
