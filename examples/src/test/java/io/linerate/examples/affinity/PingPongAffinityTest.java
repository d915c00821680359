package io.linerate.examples.affinity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import io.linerate.core.sink.LatencyJson;
import io.linerate.core.Affinity;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.cpu.ThreadAffinity;
import io.linerate.nio.latency.PingPong;
import io.linerate.peers.agent.client.RemotePingPongResult;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * sfnt-pingpong's {@code --affinity 'C;S'} on the nio transport's in-JVM ping-pong, with the native
 * layer on the class path: each end runs pinned and reports its CPU set as the kernel accounts it.
 */
class PingPongAffinityTest {
    private static final RunFacts FACTS = new RunFacts("test", "2026-01-01T00:00:00Z", "Linux", "cpu", "jvm", "--affinity");
    private static BitSet allowed;

    @BeforeAll
    static void linux() throws IOException {
        Path status = Path.of("/proc/thread-self/status");
        assumeTrue(Files.isReadable(status), "needs Linux's /proc/thread-self (3.17 or later)");
        assumeTrue(ThreadAffinity.unavailabilityCause().isEmpty(), "no thread can be pinned here: "
                + ThreadAffinity.unavailabilityCause().orElse(""));
        allowed = io.linerate.core.spi.cpu.CpuList.parse(kernelsList());
    }

    private static String kernelsList() throws IOException {
        return Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
                .substring("Cpus_allowed_list:".length()).strip();
    }

    private static PingPongSpec.Builder spec(PingPongProtocol p) {
        return PingPongSpec.builder().protocol(p).sizes(List.of(1, 64))
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(5), 20, 20, Duration.ZERO, 2))
                .timeout(Duration.ofSeconds(30));
    }

    @ParameterizedTest
    @EnumSource(value = PingPongProtocol.class, names = {"TCP", "UDP", "PIPE"})
    void bothEndsRunOnTheirCpusAndTheCallersSetIsGivenBack(PingPongProtocol p) throws Exception {
        int client = allowed.length() - 1;
        int server = allowed.nextSetBit(0);
        String before = kernelsList();
        PingPongResult r = PingPong.run(spec(p).affinity(Affinity.parse(client + ";" + server)).build(), Clock.system(), FACTS);
        assertThat(kernelsList()).as("the calling thread's set after the run").isEqualTo(before);
        assertThat(r.report().affinity()).isPresent();
        assertThat(r.report().affinity().get().client()).contains(Integer.toString(client));
        assertThat(r.report().affinity().get().server()).contains(Integer.toString(server));
        assertThat(r.sizes()).allSatisfy(s -> assertThat(s.measured()).isEqualTo(20));
        assertThat(r.report().table()).contains("# affinity: client " + client + ", server " + server + " (");
        assertThat(LatencyJson.latency(r.report()).toString())
                .contains("\"affinity\":{\"client\":\"" + client + "\",\"server\":\"" + server + "\"}");
    }

    @Test
    void oneEndPinnedLeavesTheOtherAny() throws Exception {
        int server = allowed.length() - 1;
        PingPongResult r = PingPong.run(spec(PingPongProtocol.TCP).affinity(Affinity.parse("any;" + server)).build(),
                Clock.system(), FACTS);
        assertThat(r.report().affinity().orElseThrow().client()).isEmpty();
        assertThat(r.report().table()).contains("# affinity: client any, server " + server + " (");
    }

    @Test
    void aCpuOutsideTheSetIsAUsageErrorNamingTheSet() {
        int outside = allowed.length();
        assertThatThrownBy(() -> PingPong.run(spec(PingPongProtocol.TCP)
                .affinity(new Affinity(OptionalInt.empty(), OptionalInt.of(outside))).build(), Clock.system(), FACTS))
                .isInstanceOf(TransferException.class)
                .hasMessageContaining("--affinity cannot pin the server to CPU " + outside)
                .hasMessageContaining("allowed: one of")
                .satisfies(e -> assertThat(((TransferException) e).isUsageError()).isTrue());
        assertThatThrownBy(() -> PingPong.run(spec(PingPongProtocol.TCP)
                .affinity(new Affinity(OptionalInt.of(outside), OptionalInt.empty())).build(), Clock.system(), FACTS))
                .isInstanceOf(TransferException.class)
                .hasMessageContaining("--affinity cannot pin the client to CPU " + outside);
    }

    @ParameterizedTest
    @EnumSource(value = PingPongProtocol.class, names = {"TCP", "UDP"})
    void throughTheAgentItPinsItsEchoThreadAndReportsTheSet(PingPongProtocol p) throws Exception {
        int client = allowed.nextSetBit(0);
        int server = allowed.length() - 1;
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(30)))) {
            PingPongSpec spec = spec(p).endpoint(Endpoint.remote("127.0.0.1", agent.address().getPort()))
                    .affinity(Affinity.parse(client + ";" + server)).build();
            MeasurementResult m;
            try (Measurement run = Transports.select(null, spec).open(spec, Clock.system())) {
                m = run.run(sample -> { });
            }
            PingPongResult r = ((RemotePingPongResult) m).local();
            assertThat(r.report().affinity().orElseThrow().client()).contains(Integer.toString(client));
            assertThat(r.report().affinity().orElseThrow().server()).contains(Integer.toString(server));
            assertThat(r.report().notes()).noneMatch(n -> n.contains("did not report"));
        }
    }

    @Test
    void anAgentRefusesACpuOutsideItsSetNamingIt() throws Exception {
        int outside = allowed.length();
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(30)))) {
            PingPongSpec spec = spec(PingPongProtocol.TCP).endpoint(Endpoint.remote("127.0.0.1", agent.address().getPort()))
                    .affinity(Affinity.parse("any;" + outside)).build();
            assertThatThrownBy(() -> {
                try (Measurement run = Transports.select(null, spec).open(spec, Clock.system())) {
                    run.run(sample -> { });
                }
            }).isInstanceOf(TransferException.class)
                    .hasMessageContaining("affinity refused: the echo thread cannot be pinned here: CPU " + outside
                            + " is not in this thread's CPU set");
        }
    }
}
