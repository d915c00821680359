package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.iperf3.RealIperf3.Run;
import io.linerate.peers.server.AllowFrom;
import io.linerate.peers.server.ServedInterval;
import io.linerate.peers.server.ServedSummary;
import io.linerate.peers.server.ServedTestListener;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What linerate's iperf3 server reports of a test the real {@code iperf3 -c} runs against it: its
 * interval lines, each direction's streams summed, add up to the summary, which is what iperf3 is
 * told the server counted.
 */
class Iperf3AgentIntervalsTest {
    private static String iperf3;

    @BeforeAll
    static void needIperf3() {
        iperf3 = RealIperf3.require();
    }

    /** Keeps what the server reports, and counts the summaries down. */
    private static final class Recorder implements ServedTestListener {
        final List<ServedInterval> intervals = new CopyOnWriteArrayList<>();
        final List<ServedSummary> summaries = new CopyOnWriteArrayList<>();
        final CountDownLatch ends;

        Recorder(int ends) {
            this.ends = new CountDownLatch(ends);
        }

        @Override
        public void onInterval(ServedInterval i) {
            intervals.add(i);
        }

        @Override
        public void onEnd(ServedSummary s) {
            summaries.add(s);
            ends.countDown();
        }

        long linesBytes(boolean sent) {
            return intervals.stream().filter(i -> i.sent() == sent && !i.sample().omitted()).mapToLong(i -> i.sample().bytes())
                    .sum();
        }

        ServedSummary summary(boolean sent) {
            return summaries.stream().filter(s -> s.sent() == sent).findFirst().orElseThrow();
        }
    }

    private static Iperf3Agent start(Recorder r) throws Exception {
        return Iperf3Agent.start(new Iperf3ServerConfig(InetAddress.getByName("127.0.0.1"), 0, AllowFrom.anyone(),
                AgentLimits.defaults(), Duration.ofSeconds(5)), r);
    }

    @Test
    void reverseWithTwoStreamsReportsTheBytesSentSummedOverBothStreams() throws Exception {
        Recorder r = new Recorder(1);
        Run run;
        try (Iperf3Agent a = start(r)) {
            run = RealIperf3.run(iperf3, a, "-R", "-P", "2", "-t", "2", "-b", "20M", "-J");
            assertThat(run.exit()).as(run.out()).isZero();
            assertThat(r.ends.await(30, TimeUnit.SECONDS)).isTrue();
        }
        ServedSummary sent = r.summary(true);
        assertThat(r.intervals).isNotEmpty().allMatch(i -> i.sent() && i.stream() == 0 && i.test() == 1);
        assertThat(r.linesBytes(true)).isPositive().isEqualTo(sent.bytes());
        assertThat(sent.end()).isEqualTo(ServedSummary.DONE);
        // the server's results as iperf3 shows them: what it sent over both streams
        JsonNode end = run.json().path("end");
        assertThat(sent.bytes()).isEqualTo(end.path("sum_sent").path("bytes").asLong());
    }

    @Test
    void bidirReportsEachDirectionApartAndEachAddsUp() throws Exception {
        Recorder r = new Recorder(2);
        try (Iperf3Agent a = start(r)) {
            Run run = RealIperf3.run(iperf3, a, "--bidir", "-t", "2", "-b", "10M", "-J");
            assertThat(run.exit()).as(run.out()).isZero();
            assertThat(r.ends.await(30, TimeUnit.SECONDS)).isTrue();
        }
        for (boolean sent : new boolean[] {false, true}) {
            assertThat(r.intervals).anyMatch(i -> i.sent() == sent);
            assertThat(r.linesBytes(sent)).isPositive().isLessThanOrEqualTo(r.summary(sent).bytes());
        }
    }
}
