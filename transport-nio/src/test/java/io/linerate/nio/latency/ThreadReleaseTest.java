package io.linerate.nio.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.RunFacts;
import io.linerate.nio.internal.PingPongRunner;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every thread a run starts has ended when the run returns or throws. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadReleaseTest {
    static final RunFacts FACTS = new RunFacts("test", "d", "u", "c", "j", "o");

    static List<String> linerateThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("linerate-pingpong") || n.startsWith("linerate-tcp_rr")
                        || n.startsWith("linerate-tcp_crr") || n.startsWith("linerate-rr"))
                .toList();
    }

    static PingPongSpec.Builder shortSpec(Muxer m) {
        // exactly 50 round trips: no time cap can end a size before a silent server is noticed
        return PingPongSpec.builder().sizes(List.of(16)).clientMuxer(m).serverMuxer(m)
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(30), 50, 50, Duration.ZERO, 0))
                .timeout(Duration.ofSeconds(1));
    }

    @Test
    void pingPongThreadsEndOnSuccessAndOnFailure() throws Exception {
        for (Muxer m : Muxer.values()) {
            PingPong.run(shortSpec(m).build(), Clock.system(), FACTS);
            assertThat(linerateThreads()).as("after a %s run", m).isEmpty();
            assertThatThrownBy(() -> PingPongRunner.run(shortSpec(m).protocol(PingPongProtocol.UDP).build(),
                    Clock.system(), FACTS, 5)).isInstanceOf(TransferException.class);
            assertThat(linerateThreads()).as("after a failed %s run", m).isEmpty();
        }
    }

    @Test
    void requestResponseThreadsEnd() throws Exception {
        for (boolean crr : new boolean[] {false, true}) {
            RequestResponse.run(RrSpec.builder().family(AddressFamily.IPV4).flows(3).requestBytes(8)
                    .responseBytes(8).duration(Duration.ofMillis(100)).warmup(Duration.ZERO).crr(crr).build(), Clock.system(), FACTS);
            assertThat(linerateThreads()).as("after crr=%s", crr).isEmpty();
        }
    }
}
