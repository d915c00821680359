package io.linerate.nio.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A UDP echo end that answers every ping twice, as a duplicating path delivers it. Each duplicate
 * reaches the client before the next round trip's own answer (the echo end sends it before it reads
 * the next ping), so every round trip but the last meets exactly one stale answer, and skips it: the
 * skipped answers number the round trips less one, over both sizes, and the result says so.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PingPongStaleAnswerTest {
    private static final int TRIPS = 100;

    @Test
    void aDuplicatedAnswerIsSkippedNotTakenForTheNextRoundTrips() throws Exception {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (DatagramChannel echo = DatagramChannel.open().bind(new InetSocketAddress(lo, 0))) {
            DatagramChannel client = DatagramChannel.open().bind(new InetSocketAddress(lo, 0));
            client.connect(echo.getLocalAddress());
            echo.connect(client.getLocalAddress());
            Thread echoing = new Thread(() -> answerTwice(echo), "test-duplicating-echo");
            echoing.setDaemon(true);
            echoing.start();
            PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UDP).sizes(List.of(64, 4))
                    .clientMuxer(Muxer.BLOCKING).serverMuxer(Muxer.BLOCKING)
                    .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(30), TRIPS, TRIPS, Duration.ZERO, 0))
                    .timeout(Duration.ofSeconds(20)).build();
            Endpoint end = Endpoint.open("test-pingpong-client", client, client, true, Muxer.BLOCKING, null,
                    spec.timeout().toNanos());
            PingPongResult r = PingPongRunner.runAgainst(spec, Clock.system(), new RunFacts("test", "d", "u", "c", "j", "o"),
                    end, new AppliedOptions(0, 0, 0, 0, 0, 0, false, false), new long[1]);

            assertThat(r.sizes()).extracting(PingPongResult.SizeCounts::roundTrips).containsExactly((long) TRIPS, (long) TRIPS);
            assertThat(r.sizes().get(0).staleAnswers()).as("64 B: the duplicates of its first 99 answers").isEqualTo(TRIPS - 1);
            assertThat(r.sizes().get(1).staleAnswers()).as("4 B: the last 64-byte duplicate and 99 of its own")
                    .isEqualTo(TRIPS);
            assertThat(r.report().notes()).anySatisfy(n -> assertThat(n).startsWith(
                    "99 answers to 64-byte messages carried an earlier round trip's number"));
        }
    }

    private static void answerTwice(DatagramChannel echo) {
        ByteBuffer b = ByteBuffer.allocate(2048);
        try {
            while (true) {
                b.clear();
                echo.read(b);
                b.flip();
                echo.write(b.duplicate());
                echo.write(b);
            }
        } catch (ClosedChannelException e) {
            // the test is over
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
