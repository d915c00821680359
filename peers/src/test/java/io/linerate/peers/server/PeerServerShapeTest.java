package io.linerate.peers.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.iperf2.Iperf2ServerConfig;
import io.linerate.peers.iperf3.Iperf3ServerConfig;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The one shape of linerate's three servers: each starts from its config through
 * {@link PeerServerConfig#start}, says where it listens, and on {@link PeerServer#close()} releases
 * its port and every thread it started.
 */
class PeerServerShapeTest {
    private static final InetAddress LO = InetAddress.getLoopbackAddress();
    private static final Duration IO = Duration.ofSeconds(2);

    static Stream<PeerServerConfig> configs() {
        return Stream.of(
                new AgentConfig(LO, 0, AllowFrom.anyone(), Optional.empty(), AgentLimits.defaults(), IO),
                new Iperf3ServerConfig(LO, 0, AllowFrom.anyone(), AgentLimits.defaults(), IO),
                new Iperf2ServerConfig(LO, 0, AllowFrom.anyone(), AgentLimits.defaults(), IO));
    }

    private static List<Thread> serverThreads(String stem) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith(stem) && t.isAlive()).toList();
    }

    @ParameterizedTest
    @MethodSource("configs")
    void startsFromItsConfigAndCloseReleasesItsPortAndThreads(PeerServerConfig config) throws Exception {
        // threads another test left are not this server's
        List<Thread> before = Thread.getAllStackTraces().keySet().stream().toList();
        PeerServer server = config.start(ServedTestListener.NONE);
        InetSocketAddress at = server.address();
        String stem = config instanceof AgentConfig ? "linerate-agent-accept"
                : config instanceof Iperf3ServerConfig ? "linerate-iperf3-" : "linerate-iperf2-";
        try {
            assertThat(at.getAddress()).isEqualTo(LO);
            assertThat(at.getPort()).isBetween(1, 65535);
            assertThat(server.activeSessions()).isZero();
            assertThat(serverThreads(stem)).isNotEmpty();
        } finally {
            server.close();
        }
        server.close(); // again: nothing more to do
        assertThat(serverThreads(stem)).allMatch(before::contains);
        // the port is free again
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(at);
            assertThat(s.getLocalPort()).isEqualTo(at.getPort());
        }
    }

    @ParameterizedTest
    @MethodSource("configs")
    void everyConfigHasTheSameBaseSettingsAndIsMadeFromThem(PeerServerConfig config) {
        AllowFrom anyone = config.allowFrom();
        assertThat(anyone.isEmpty()).isTrue();
        PeerServerSettings base = new PeerServerSettings(LO, 0, anyone, AgentLimits.defaults(), IO);
        assertThat(config.settings()).isEqualTo(base);
        PeerServerConfig again = config instanceof AgentConfig a ? AgentConfig.of(base, a.secret())
                : config instanceof Iperf3ServerConfig ? Iperf3ServerConfig.of(base) : Iperf2ServerConfig.of(base);
        assertThat(again).isEqualTo(config);
    }

    @org.junit.jupiter.api.Test
    void theBaseNamesAValueOutOfRangeWithItsRange() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PeerServerSettings(LO, 70000, AllowFrom.anyone(),
                AgentLimits.defaults(), IO)).hasMessage("port 70000 is out of range; allowed: 0 (ephemeral)..65535");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PeerServerSettings(LO, 0, AllowFrom.anyone(),
                AgentLimits.defaults(), Duration.ZERO)).hasMessage("I/O timeout 0 ms is out of range; allowed: 1 ms or more");
    }
}
