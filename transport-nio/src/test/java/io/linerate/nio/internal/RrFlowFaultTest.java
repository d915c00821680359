package io.linerate.nio.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.RrSpec;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A request/response server that never answers ends a flow with an error after the timeout. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RrFlowFaultTest {

    static RrSpec spec(boolean crr) {
        return RrSpec.builder().family(AddressFamily.IPV4).flows(1).requestBytes(16).responseBytes(16)
                .duration(Duration.ofSeconds(10)).warmup(Duration.ZERO).crr(crr).timeout(Duration.ofMillis(300)).build();
    }

    @Test
    void aSilentServerIsATimeoutNamingTheFlowAndItsTransactions() throws Exception {
        // the kernel completes the handshake from the backlog; nobody ever reads or answers
        try (ServerSocketChannel silent = ServerSocketChannel.open()) {
            silent.bind(new InetSocketAddress("127.0.0.1", 0), 16);
            for (boolean crr : new boolean[] {false, true}) {
                RrFlow f = new RrFlow(0, spec(crr), silent.getLocalAddress(), Clock.system(), 0);
                f.start();
                // bounded: the flow ends by itself 300 ms into its first transaction
                assertThat(f.awaitEnd(10_000)).isTrue();
                f.close();
                assertThat(f.completed()).isZero();
                assertThat(f.failure()).isNotNull();
                assertThat(f.failure().getMessage())
                        .isEqualTo("flow 0 could not receive a response within the timeout of 300 ms after 0 transactions");
            }
        }
    }
}
