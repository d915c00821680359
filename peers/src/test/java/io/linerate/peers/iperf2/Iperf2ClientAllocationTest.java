package io.linerate.peers.iperf2;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Bound;
import io.linerate.core.IntervalListener;
import io.linerate.core.IntervalSample;
import io.linerate.core.PeerDirection;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.peers.Allocations;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.AllowFrom;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The iperf 2 client's send loop, interval hook included, allocates nothing per datagram: a run of
 * ten times the datagrams allocates, on the sending thread, less than a byte more per extra
 * datagram (what an interval costs, a sample each 10 ms, is a few hundred bytes a run).
 */
@Timeout(120)
class Iperf2ClientAllocationTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    /** Counts what it is given without allocating. */
    private static final class Counting implements IntervalListener {
        long samples;
        long datagrams;

        @Override
        public void onInterval(IntervalSample sample) {
            samples++;
        }

        @Override
        public void onInterval(int stream, PeerDirection direction, IntervalSample sample) {
            samples++;
            datagrams += sample.datagrams();
        }
    }

    private static void send(int port, long datagrams, Counting listener) {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(200).bound(Bound.messages(datagrams))
                .interval(TransferSpec.MIN_INTERVAL).ioTimeout(TIMEOUT).build();
        try {
            Iperf2Result r = Iperf2Client.run("127.0.0.1", port, spec, Iperf2HeaderVariant.SEQ64, listener);
            assertThat(r.local().datagrams()).isEqualTo(datagrams);
        } catch (Iperf2Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void moreDatagramsAllocateNothingMore() throws Exception {
        try (Iperf2Agent server = Iperf2Agent.start(new Iperf2ServerConfig(InetAddress.getLoopbackAddress(), 0,
                AllowFrom.anyone(), AgentLimits.defaults(), TIMEOUT))) {
            int port = server.address().getPort();
            Counting listener = new Counting();
            long few = Allocations.leastOf(() -> send(port, 2_000, listener));
            long many = Allocations.leastOf(() -> send(port, 20_000, listener));

            assertThat(many - few).as("bytes allocated for 18000 more datagrams").isLessThan(18_000);
            // the hook ran: every datagram but each run's final one was in an interval
            assertThat(listener.samples).isPositive();
            assertThat(listener.datagrams).isEqualTo((1 + Allocations.MEASURED_RUNS) * (1_999L + 19_999L));
        }
    }
}
