package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.Protocol;
import io.linerate.core.TcpMss;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.testsupport.OpenFds;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Real TCP streams over this host's loopback on native sockets, both ends in this JVM. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeTransportTest {

    private static TransferResult run(TransferSpec spec) throws TransferException {
        try (Transfer t = Transports.byName("native").open(spec, Clock.system())) {
            return t.run();
        }
    }

    private static TransferSpec.Builder tcp(AddressFamily f) {
        return TransferSpec.builder().protocol(Protocol.TCP).family(f).warmup(Duration.ZERO).interval(Duration.ofMillis(100));
    }

    @Test
    void theTransportIsFoundByNameAndAvailableOnLinuxX8664() {
        assertThat(Transports.byName("native")).isInstanceOf(NativeTransport.class);
        assertThat(new NativeTransport().unavailabilityCause()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void aCountBoundStreamDeliversExactlyTheBytesAsked(AddressFamily f) throws Exception {
        TransferResult r = run(tcp(f).bound(Bound.bytes(20_000_000)).build());
        assertThat(r.bytesSent()).isEqualTo(20_000_000);
        assertThat(r.bytesReceived()).isEqualTo(20_000_000);
        // 20,000,000 / 1220 = 16393 whole writes and one of 480 bytes
        assertThat(r.messagesSent()).isEqualTo(16_394);
        assertThat(r.valid()).as(r.invalidReasons().toString()).isTrue();
    }

    @Test
    void aDurationBoundStreamCountsEverySentByteAtTheReceiver() throws Exception {
        TransferResult r = run(tcp(AddressFamily.IPV4).duration(Duration.ofMillis(300)).warmup(Duration.ofMillis(100)).build());
        assertThat(r.bytesReceived()).isEqualTo(r.bytesSent()).isPositive();
        long intervalBytes = r.intervals().stream().filter(i -> !i.omitted()).mapToLong(i -> i.bytes()).sum();
        assertThat(intervalBytes).isEqualTo(r.windowBytesReceived()).isPositive();
        assertThat(r.valid()).as(r.invalidReasons().toString()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void theMssIsReadAtBothEndsAndBoundedByTheLoopbackMtu(AddressFamily f) throws Exception {
        TransferResult r = run(tcp(f).bound(Bound.bytes(1_000_000)).build());
        TcpMss mss = r.options().tcpMss().orElseThrow();
        TcpMss.Read read = mss.read().orElseThrow();
        // loopback MTU 65536; an IPv4 datagram holds 65535; less the IP header and 20 TCP bytes
        int bound = (f == AddressFamily.IPV4 ? 65535 : 65536) - f.ipHeaderBytes() - 20;
        assertThat(read.senderBytes()).isPositive().isLessThanOrEqualTo(bound);
        assertThat(read.receiverBytes()).isPositive().isLessThanOrEqualTo(bound);
        assertThat(mss.bytes()).isEqualTo(read.senderBytes());
        assertThat(mss.derivation()).isEqualTo("read: TCP_MAXSEG " + read.senderBytes() + " at the sender, "
                + read.receiverBytes() + " at the receiver").doesNotContain("derived");
    }

    @Test
    void optionsAreReadBackAsTheKernelHoldsThem() throws Exception {
        TransferResult r = run(tcp(AddressFamily.IPV4).noDelay(true).trafficClass(0x10).sendBufferBytes(128 * 1024)
                .bound(Bound.bytes(100_000)).build());
        assertThat(r.options().noDelayApplied()).isTrue();
        assertThat(r.options().trafficClassApplied()).isEqualTo(0x10);
        assertThat(r.options().sendBufferApplied()).isEqualTo(2 * 128 * 1024); // socket(7): doubled
    }

    @Test
    void whatItCannotRunYetIsNamedByTheSpecsField() {
        NativeTransport t = new NativeTransport();
        assertThat(t.unsupportedReason(TransferSpec.builder().protocol(Protocol.UDP).build())).isEmpty();
        assertThat(t.unsupportedReason(TransferSpec.builder()
                .endpoint(Iperf3Peer.builder(Endpoint.remote("198.18.0.2", 5201)).build()).build()))
                .hasValue("endpoint 198.18.0.2:5201 is not yet on the native transport: it runs both ends in this JVM "
                        + "over loopback, or one end of a stream with linerate's agent");
        // the agent's protocol is in linerate-peers, which this module's tests do not have
        assertThat(t.unsupportedReason(TransferSpec.builder().endpoint(Endpoint.remote("198.18.0.2", 5201)).build()))
                .hasValueSatisfying(s -> assertThat(s).startsWith("no peer protocol on the class path reaches ")
                        .endsWith("add linerate-peers"));
        assertThat(t.unsupportedReason(tcp(AddressFamily.IPV6).build())).isEmpty();
    }

    @Test
    void everySocketIsClosedAfterARunAndAfterAFailedOpen() throws Exception {
        Set<String> before = OpenFds.snapshot();
        run(tcp(AddressFamily.IPV4).bound(Bound.bytes(1_000_000)).build());
        assertThat(OpenFds.snapshot()).isEqualTo(before);
        try (NativeSocket holder = NativeSocket.tcp(AddressFamily.IPV4)) {
            holder.bindAndListen(AddressFamily.IPV4.loopbackAddress(), 0, 1);
            int port = holder.localPort();
            assertThatThrownBy(() -> run(tcp(AddressFamily.IPV4).port(port).bound(Bound.bytes(1000)).build()))
                    .isInstanceOf(TransferException.class)
                    .hasMessageContaining("EADDRINUSE (Address already in use)")
                    .satisfies(e -> assertThat(((TransferException) e).isUsageError()).isTrue());
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }
}
