package io.linerate.examples.affinity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.Affinity;
import io.linerate.core.AgentPeer;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.PeerDirection;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.spi.cpu.CpuList;
import io.linerate.core.spi.cpu.ThreadAffinity;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A stream's {@code --affinity 'C;S'}, as iperf3's {@code -A C,S}: in one JVM every sending thread
 * runs on C and every receiving thread on S; with a peer, this host's end runs on C and the agent's
 * CPU is refused, not dropped. Where each thread runs is read from the kernel's account of it
 * ({@code Cpus_allowed_list} of {@code /proc/self/task/TID/status}) while the stream runs, not from
 * linerate.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StreamAffinityTest {
    private static final String FIELD = "Cpus_allowed_list:";
    private static BitSet allowed;

    @BeforeAll
    static void linux() throws IOException {
        assumeTrue(Files.isReadable(Path.of("/proc/thread-self/status")), "needs Linux's /proc/thread-self (3.17 or later)");
        assumeTrue(ThreadAffinity.unavailabilityCause().isEmpty(), "no thread can be pinned here: "
                + ThreadAffinity.unavailabilityCause().orElse(""));
        allowed = CpuList.parse(cpus(Path.of("/proc/thread-self/status")).orElseThrow());
    }

    private static Optional<String> cpus(Path status) throws IOException {
        try (Stream<String> lines = Files.lines(status)) {
            return lines.filter(l -> l.startsWith(FIELD)).findFirst().map(l -> l.substring(FIELD.length()).strip());
        } catch (NoSuchFileException e) {
            return Optional.empty(); // the thread ended while the listing was read
        }
    }

    /** Records, each time it is called, the CPU set of every live thread of this JVM with one of the names. */
    private static final class ThreadSets {
        private final List<String> names;
        private final Map<String, String> seen = new HashMap<>();

        ThreadSets(String... names) {
            this.names = List.of(names);
        }

        void look() {
            try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
                for (Path task : (Iterable<Path>) tasks::iterator) {
                    String name = Files.readString(task.resolve("comm")).strip();
                    if (names.contains(name)) {
                        cpus(task.resolve("status")).ifPresent(set -> seen.merge(name, set,
                                (a, b) -> a.equals(b) ? a : a + "|" + b));
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    private static TransferSpec.Builder stream(Protocol p) {
        return TransferSpec.builder().protocol(p).payloadBytes(p == Protocol.TCP ? 16384 : 1200)
                .rateBitsPerSecond(p == Protocol.UDP ? 200_000_000L : 0).warmup(Duration.ZERO)
                .interval(Duration.ofMillis(100)).ioTimeout(Duration.ofSeconds(30));
    }

    @ParameterizedTest
    @CsvSource({"nio,TCP", "native,TCP", "native,UDP"})
    void everySenderRunsOnTheClientsCpuAndEveryReceiverOnTheServers(String transport, Protocol p) throws Exception {
        int client = allowed.length() - 1;
        int server = allowed.nextSetBit(0);
        String before = cpus(Path.of("/proc/thread-self/status")).orElseThrow();
        TransferSpec spec = stream(p).bound(Bound.duration(Duration.ofMillis(600)))
                .affinity(Affinity.parse(client + ";" + server)).build();
        ThreadSets sets = new ThreadSets("linerate-tx-1", "linerate-rx-1");
        TransferResult r;
        try (Transfer t = Transports.byName(transport).open(spec, Clock.system())) {
            r = t.run(sample -> sets.look());
        }
        assertThat(spec.toString()).contains("affinity=" + client + ";" + server);
        assertThat(ResultJson.transfer(r).toString())
                .contains("\"affinity\":{\"client\":\"" + client + "\",\"server\":\"" + server + "\"}");
        assertThat(sets.seen).containsEntry("linerate-tx-1", Integer.toString(client))
                .containsEntry("linerate-rx-1", Integer.toString(server));
        assertThat(cpus(Path.of("/proc/thread-self/status"))).as("the calling thread's set after the run").contains(before);
    }

    @Test
    void aCpuOutsideTheSetIsAUsageErrorBeforeAnyThreadStarts() {
        int outside = allowed.length();
        TransferSpec spec = stream(Protocol.TCP).bound(Bound.duration(Duration.ofMillis(300)))
                .affinity(new Affinity(OptionalInt.of(outside), OptionalInt.empty())).build();
        assertThatThrownBy(() -> {
            try (Transfer t = Transports.byName("native").open(spec, Clock.system())) {
                t.run();
            }
        }).isInstanceOf(TransferException.class)
                .hasMessageContaining("--affinity cannot pin the client (the sending end) to CPU " + outside)
                .hasMessageContaining("allowed: one of " + CpuList.format(allowed))
                .satisfies(e -> assertThat(((TransferException) e).isUsageError()).isTrue());
    }

    @Test
    void withTheAgentThisHostsEndRunsOnTheClientsCpuAndTheServersIsRefused() throws Exception {
        int client = allowed.length() - 1;
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(30)))) {
            Endpoint far = Endpoint.remote("127.0.0.1", agent.address().getPort());
            TransferSpec spec = stream(Protocol.TCP).bound(Bound.duration(Duration.ofMillis(600)))
                    .endpoint(far).affinity(Affinity.parse(client + ";any")).build();
            // the kernel keeps 15 bytes of a thread's name (comm): linerate-end-tx-1 reads linerate-end-tx
            ThreadSets sets = new ThreadSets("linerate-end-tx");
            try (Measurement run = Transports.select(null, spec).open(spec, Clock.system())) {
                run.run(sample -> sets.look());
            }
            assertThat(sets.seen).containsEntry("linerate-end-tx", Integer.toString(client));

            // a CPU this process may not use is bad usage before the agent sets anything up, in either
            // direction (a reverse stream's agent would otherwise report only that its client did not start)
            int outside = allowed.length();
            Endpoint.Remote at = (Endpoint.Remote) far;
            TransferSpec reverse = spec.toBuilder().affinity(new Affinity(OptionalInt.of(outside), OptionalInt.empty()))
                    .endpoint(new AgentPeer(at, Optional.empty(), PeerDirection.REVERSE, 1)).build();
            assertThatThrownBy(() -> {
                try (Measurement run = Transports.select(null, reverse).open(reverse, Clock.system())) {
                    run.run(sample -> { });
                }
            }).isInstanceOf(TransferException.class)
                    .hasMessageContaining("--affinity cannot pin the client (this host's end) to CPU " + outside)
                    .satisfies(e -> assertThat(((TransferException) e).isUsageError()).isTrue());

            TransferSpec both = spec.toBuilder().affinity(Affinity.parse(client + ";" + client)).build();
            assertThatThrownBy(() -> {
                try (Measurement run = Transports.select(null, both).open(both, Clock.system())) {
                    run.run(sample -> { });
                }
            }).hasMessageContaining("is not sent to the agent of a stream")
                    .hasMessageContaining("taskset -c " + client + " linerate serve");
        }
    }
}
