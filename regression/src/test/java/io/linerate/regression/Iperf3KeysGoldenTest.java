package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The keys the gate gives real iperf3 3.12 {@code -J} files, both sides of a forward, a {@code -R} and
 * a {@code --bidir} TCP test (inputs/iperf3/README.md): the keys linerate's own iperf3 client writes
 * for the same test (docs/metrics.md, "One key per quantity"). Expected by the rule: the receiver's
 * goodput at the host that received, the sender's rate at the host that sent, {@code local} for the
 * file's own side; iperf3 leaves the server's {@code sum_sent} of a direction it received and its
 * {@code sum_received} of a direction it sent at 0, so those are not read.
 */
class Iperf3KeysGoldenTest {
    private static final String FWD_SENT_HERE = "tcp4/tcp4_sent_mbps{direction=forward}@local";
    private static final String FWD_GOT_THERE = "tcp4/tcp4_mbps{direction=forward}@remote";
    private static final String FWD_GOT_HERE = "tcp4/tcp4_mbps{direction=forward}@local";
    private static final String REV_SENT_THERE = "tcp4/tcp4_sent_mbps{direction=reverse}@remote";
    private static final String REV_GOT_HERE = "tcp4/tcp4_mbps{direction=reverse}@local";
    private static final String REV_SENT_HERE = "tcp4/tcp4_sent_mbps{direction=reverse}@local";

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "tcp-forward.json        | " + FWD_SENT_HERE + "," + FWD_GOT_THERE + "                                    | 0",
        "tcp-forward-server.json | " + FWD_GOT_HERE + "                                                           | 0",
        "tcp-reverse.json        | " + REV_SENT_THERE + "," + REV_GOT_HERE + "                                    | 0",
        "tcp-reverse-server.json | " + REV_SENT_HERE + "                                                          | 1",
        "tcp-bidir.json          | " + FWD_SENT_HERE + "," + FWD_GOT_THERE + "," + REV_SENT_THERE + "," + REV_GOT_HERE + " | 0",
        "tcp-bidir-server.json   | " + FWD_GOT_HERE + "," + REV_SENT_HERE + "                                     | 1",
    })
    void eachFileGivesTheKeysOfWhatItHolds(String file, String keys, int warnings) {
        MetricSet s = TestFiles.read("iperf3/real/" + file);
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).extracting(o -> o.key().display()).containsOnly(keys.split(","))
                .contains(keys.split(","));
        assertThat(s.warnings()).hasSize(warnings);
    }

    @ParameterizedTest
    @CsvSource({
        // the client's file: its own sum_sent, and the server's count it passed back at the end
        "tcp-forward.json, " + FWD_SENT_HERE + ", 5356.9805405146",
        "tcp-forward.json, " + FWD_GOT_THERE + ", 5313.970182149217",
        "tcp-reverse.json, " + REV_SENT_THERE + ", 7945.481896879623",
        "tcp-reverse-server.json, " + REV_SENT_HERE + ", 7945.481896879623",
    })
    void theWholeTestFiguresAreTheFilesEndSums(String file, String key, double mbps) {
        List<Observation> one = TestFiles.read("iperf3/real/" + file).observations().stream()
                .filter(o -> o.key().display().equals(key)).toList();
        assertThat(one).singleElement().satisfies(o -> assertThat(o.value()).isCloseTo(mbps, within(1e-9)));
    }

    @org.junit.jupiter.api.Test
    void parallelStreamsSumsAreLabelledAsTheAgentsAre() {
        // tcp-p2.json: iperf3 -c -P 2, forward; its sums are labelled stream=sum and streams=2
        MetricSet s = TestFiles.read("iperf3/tcp-p2.json");
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).extracting(o -> o.key().display()).containsOnly(
                "tcp4/tcp4_sent_mbps{direction=forward,stream=sum,streams=2}@local",
                "tcp4/tcp4_mbps{direction=forward,stream=sum,streams=2}@remote");
    }
}
