package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.PingPongResult;
import io.linerate.socket.internal.BindToDevice;
import io.linerate.socket.internal.NativePingPong;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * sfnt-pingpong's {@code --bindtodev}: SO_BINDTODEVICE on both ends' sockets. Binding to {@code lo}
 * is allowed to an unprivileged process on Linux 5.7 and later for a socket not yet bound to a
 * device, and to root everywhere.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BindToDeviceTest {

    @Test
    void aSocketBoundToLoReadsLoBack() throws Exception {
        try (NativeSocket s = NativeSocket.udp(AddressFamily.IPV4)) {
            assertThat(BindToDevice.read(s)).isEmpty();
            BindToDevice.bind(s, "lo");
            assertThat(BindToDevice.read(s)).contains("lo");
        }
    }

    @ParameterizedTest
    @EnumSource(value = PingPongProtocol.class, names = {"TCP", "UDP"})
    void aPingPongBoundToLoRuns(PingPongProtocol p) throws Exception {
        PingPongSpec spec = NativePingPongTest.shortSweep(p).sizes(List.of(32)).bindToDevice("lo").build();
        long[] answered = {-1};
        PingPongResult r = NativePingPong.run(spec, Clock.system(), NativePingPongTest.FACTS, -1, n -> answered[0] = n);
        assertThat(r.sizes().get(0).measured()).isPositive();
        assertThat(answered[0]).isGreaterThanOrEqualTo(r.roundTrips());
        assertThat(r.detailJson().toJson()).contains("\"bindtodev\":\"lo\"");
    }

    @Test
    void anInterfaceThatDoesNotExistIsAUsageErrorNamingIt() {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UDP).bindToDevice("nosuchif0").build();
        assertThatThrownBy(() -> NativePingPong.run(spec, Clock.system(), NativePingPongTest.FACTS, -1, n -> { }))
                .isInstanceOf(TransferException.class)
                .hasMessageStartingWith("bindtodev nosuchif0: no network interface named 'nosuchif0' on this host; "
                        + "allowed: one of ")
                .hasMessageContaining("lo")
                .satisfies(e -> assertThat(((TransferException) e).isUsageError()).isTrue());
    }

    @Test
    void anInterfaceThatDoesNotCarryTheLoopbackAddressIsAUsageErrorBeforeAnyConnect() throws Exception {
        // any interface of this host but lo: none of them holds 127.0.0.1
        Optional<String> other;
        try (Stream<Path> names = Files.list(Path.of("/sys/class/net"))) {
            other = names.map(p -> p.getFileName().toString()).filter(n -> !n.equals("lo")).sorted().findFirst();
        }
        Assumptions.assumeTrue(other.isPresent(), "skipped: this host has no interface but lo");
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.TCP).bindToDevice(other.get()).build();
        assertThatThrownBy(() -> NativePingPong.run(spec, Clock.system(), NativePingPongTest.FACTS, -1, n -> { }))
                .isInstanceOf(TransferException.class)
                .hasMessageStartingWith("bindtodev " + other.get() + ": this ping-pong runs over 127.0.0.1, which "
                        + other.get() + " does not carry")
                .hasMessageContaining("allowed: an interface that holds it, such as lo")
                .satisfies(e -> assertThat(((TransferException) e).isUsageError()).isTrue());
    }
}
