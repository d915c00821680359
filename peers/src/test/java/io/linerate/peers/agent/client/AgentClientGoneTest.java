package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.agent.server.AgentStopTest;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A client that goes away mid-stream (its sockets closed under it, as the kernel closes those of
 * a process killed with {@code kill -9}): the agent frees the session long before its deadline and
 * serves the next client, and its descriptors and threads return to where they were.
 */
@Timeout(60)
class AgentClientGoneTest {
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                AgentLimits.defaults(), Duration.ofSeconds(5)));
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    @ParameterizedTest
    @CsvSource({"TCP,false", "TCP,true", "UDP,false", "UDP,true"})
    void theAgentFreesTheSessionOfAClientThatWentAwayAndServesTheNext(Protocol p, boolean reverse) throws Exception {
        TransferSpec good = AgentStreamTest.spec(agent, p).duration(Duration.ofMillis(100)).warmup(Duration.ZERO)
                .rateBitsPerSecond(p == Protocol.UDP ? 20_000_000 : 0).build();
        AgentStreamTest.run(good, reverse); // loads every class first
        waitUntil(() -> agent.activeSessions() == 0);
        long fds = openDescriptors();
        int threads = ManagementFactory.getThreadMXBean().getThreadCount();

        // 40 s: its deadline (warm-up + duration + two I/O timeouts) is past the 20 s the wait below allows
        TransferSpec doomed = good.toBuilder().duration(Duration.ofSeconds(40)).build();
        AtomicBoolean cut = new AtomicBoolean();
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(doomed, Clock.system(),
                new RemoteOptions(Optional.of(AgentStreamTest.SECRET), reverse))) {
            IntervalListener goAway = s -> {
                if (cut.compareAndSet(false, true)) {
                    t.close(); // both sockets closed under the running end
                }
            };
            t.runBothEnds(goAway);
        } catch (Exception expected) {
            // this end fails or ends early on its closed sockets; the agent is what is tested
        }
        assertThat(cut).isTrue();
        waitUntil(() -> agent.activeSessions() == 0);
        assertThat(agent.activeSessions()).as("sessions still running").isZero();

        RemoteStreamResult next = AgentStreamTest.run(good, reverse);
        if (p == Protocol.TCP) {
            assertThat(next.remote().bytes()).isEqualTo(next.local().bytes());
        } else {
            var u = next.transfer().udp().orElseThrow();
            assertThat(u.datagramsSent()).isEqualTo(u.datagramsReceived() + u.lost());
        }
        // judged on the readings the wait took: a second reading after it can catch a descriptor that comes
        // and goes (one more than before, in loaded full runs), which says nothing of what the agent left behind
        long[] seen = new long[2];
        waitUntil(() -> {
            seen[0] = openDescriptors();
            seen[1] = ManagementFactory.getThreadMXBean().getThreadCount();
            return agent.activeSessions() == 0 && seen[0] <= fds && seen[1] <= threads;
        });
        assertThat(seen[0]).as("open descriptors, against %d before", fds).isLessThanOrEqualTo(fds);
        assertThat(seen[1]).as("threads, against %d before", threads).isLessThanOrEqualTo(threads);
    }

    static long openDescriptors() {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Polls a condition every 10 ms for at most 20 s; the assertions after it say what failed. */
    static void waitUntil(java.util.function.BooleanSupplier done) {
        AgentStopTest.waitUntil(done);
    }
}
