package io.linerate.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.UdpStats;
import io.linerate.core.spi.tcp.TcpInfoSources;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** Real traffic over this host's loopback, both ends in this JVM. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NioStreamIntegrationTest {

    private static TransferResult run(TransferSpec spec) throws TransferException {
        try (Transfer t = Transports.byName("nio").open(spec, Clock.system())) {
            return t.run();
        }
    }

    private static TransferSpec.Builder base(Protocol p, AddressFamily f) {
        return TransferSpec.builder().protocol(p).family(f).warmup(Duration.ZERO).interval(Duration.ofMillis(100));
    }

    @Test
    void transportIsFoundByName() {
        assertThat(Transports.byName("nio")).isInstanceOf(NioTransport.class);
        assertThatThrownBy(() -> Transports.byName("carrier-pigeon"))
                .hasMessage("no transport named 'carrier-pigeon'; available: nio");
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void tcpCountBoundDeliversExactlyTheBytesAsked(AddressFamily f) throws Exception {
        TransferResult r = run(base(Protocol.TCP, f).bound(Bound.bytes(20_000_000)).build());
        assertThat(r.bytesSent()).isEqualTo(20_000_000);
        assertThat(r.bytesReceived()).isEqualTo(20_000_000);
        // 20,000,000 / 1220 = 16393 whole writes and one of 480 bytes
        assertThat(r.messagesSent()).isEqualTo(16_394);
        assertThat(r.valid()).as(r.invalidReasons().toString()).isTrue();
        assertThat(r.bitsPerSecond()).isPresent();
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void tcpDurationBoundReceiverCountsEverySentByte(AddressFamily f) throws Exception {
        TransferResult r = run(base(Protocol.TCP, f).duration(Duration.ofMillis(300)).warmup(Duration.ofMillis(100)).build());
        assertThat(r.bytesReceived()).isEqualTo(r.bytesSent()).isPositive();
        assertThat(r.windowBytesReceived()).isPositive().isLessThanOrEqualTo(r.bytesReceived());
        assertThat(r.windowStartNanos()).isGreaterThanOrEqualTo(100_000_000L);
        long intervalBytes = r.intervals().stream().filter(i -> !i.omitted()).mapToLong(i -> i.bytes()).sum();
        assertThat(intervalBytes).isEqualTo(r.windowBytesReceived());
        assertThat(r.valid()).as(r.invalidReasons().toString()).isTrue();
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void udpCountBoundAccountsEveryDatagram(AddressFamily f) throws Exception {
        TransferResult r = run(base(Protocol.UDP, f).bound(Bound.messages(20_000)).rateBitsPerSecond(200_000_000L).build());
        UdpStats u = r.udp().orElseThrow();
        assertThat(u.datagramsSent()).isEqualTo(20_000);
        assertThat(r.messagesSent()).isEqualTo(20_000);
        assertThat(r.bytesSent()).isEqualTo(20_000L * 1220);
        assertThat(u.datagramsReceived() + u.lost()).isEqualTo(u.datagramsSent());
        assertThat(r.bytesReceived()).isEqualTo(u.datagramsReceived() * 1220);
        assertThat(u.duplicates()).isZero();
        assertThat(u.oneWayDelay().count()).isEqualTo(u.datagramsReceived());
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void udpUnlimitedRateSentIsReceivedPlusLost(AddressFamily f) throws Exception {
        TransferResult r = run(base(Protocol.UDP, f).duration(Duration.ofMillis(300)).build());
        UdpStats u = r.udp().orElseThrow();
        assertThat(u.datagramsSent()).isPositive();
        assertThat(u.datagramsReceived()).isPositive();
        assertThat(u.datagramsReceived() + u.lost()).isEqualTo(u.datagramsSent());
        // RFC 3550 jitter exists once two datagrams arrived (the window's received ones among them)
        long arrived = r.bytesReceived() / TransferSpec.DEFAULT_PAYLOAD_BYTES;
        assertThat(u.jitterNanos().isPresent()).isEqualTo(arrived >= 2);
        assertThat(u.jitterNanos().orElse(0.0)).isGreaterThanOrEqualTo(0.0);
    }

    @Test
    void pacedUdpHoldsItsRate() throws Exception {
        // 10 Mbit/s of 1250-byte datagrams is 1000 datagrams/s: 300 of them need 0.2992 s after the first
        TransferResult r = run(base(Protocol.UDP, AddressFamily.IPV4).payloadBytes(1250)
                .bound(Bound.messages(300)).rateBitsPerSecond(10_000_000).build());
        UdpStats u = r.udp().orElseThrow();
        assertThat(u.datagramsSent()).isEqualTo(300);
        assertThat(u.datagramsReceived() + u.lost()).isEqualTo(300);
        assertThat(r.measuredNanos()).isGreaterThanOrEqualTo(299_000_000L);
    }

    @ParameterizedTest
    @CsvSource({"TCP, 10000000", "TCP, 50000000", "UDP, 50000000"})
    void aPacedStreamNeverExceedsItsTargetOverTheWindow(Protocol p, long rate) throws Exception {
        // The window's traffic leaves on a schedule of its own that starts at the window's opening
        // reading (Pacer): by any later reading, at most rate × elapsed plus one message has been
        // sent, and only that traffic counts as received. A busy host can only make either figure
        // smaller. 1 s at 10 Mbit/s is 1024.6 messages of 1220 bytes, so one message is 0.1%.
        TransferResult r = run(base(p, AddressFamily.IPV4).payloadBytes(1220).rateBitsPerSecond(rate)
                .warmup(Duration.ofMillis(200)).duration(Duration.ofSeconds(1)).interval(Duration.ofMillis(250)).build());
        assertThat(r.windowBytesSent()).isPositive();
        assertThat(r.senderBitsPerSecond().orElseThrow()).isLessThanOrEqualTo(1.01 * rate);
        assertThat(r.bitsPerSecond().orElseThrow()).isLessThanOrEqualTo(1.01 * rate);
        // the window's intervals count the window's traffic, so they add up to its total
        assertThat(r.intervals().stream().filter(i -> !i.omitted()).mapToLong(IntervalSample::bytes).sum())
                .isEqualTo(r.windowBytesReceived());
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void trafficClassAndNoDelayAreAppliedAndReadBack(AddressFamily f) throws Exception {
        TransferResult tcp = run(base(Protocol.TCP, f).noDelay(true).trafficClass(0x88).bound(Bound.bytes(100_000)).build());
        assertThat(tcp.options().noDelayApplied()).isTrue();
        assertThat(tcp.options().trafficClassApplied()).isEqualTo(0x88);
        TransferResult plain = run(base(Protocol.TCP, f).noDelay(false).bound(Bound.bytes(100_000)).build());
        assertThat(plain.options().noDelayApplied()).isFalse();
        assertThat(plain.options().trafficClassApplied()).isEqualTo(0x20);
        TransferResult udp = run(base(Protocol.UDP, f).trafficClass(0xb8).bound(Bound.messages(10)).build());
        assertThat(udp.options().trafficClassApplied()).isEqualTo(0xb8);
        // every TCP transfer reports its MSS; without a TCP_INFO source (no native layer in this module's
        // tests) derived from the loopback MTU (PathFactsTest checks the values), saying why it was not read
        assertThat(tcp.options().tcpMss()).isEqualTo(PathFacts.loopbackTcpMss(f)
                .map(m -> m.withUnreadBecause(TcpInfoSources.NO_SOURCE))).isPresent();
        assertThat(udp.options().tcpMss()).isEmpty();
        // nor does it read the sender's TCP_INFO: the result says why, in its JSON too, and has no figures
        assertThat(tcp.tcp()).isEmpty();
        assertThat(tcp.tcpUnavailable()).isEqualTo(TcpInfoSources.NO_SOURCE);
        assertThat(io.linerate.core.sink.ResultJson.of(tcp).toJson())
                .contains("\"tcp_info_unavailable\":\"" + TcpInfoSources.NO_SOURCE + "\"").doesNotContain("\"tcp_info\":");
        assertThat(udp.tcpUnavailable()).isEmpty();
    }

    @Test
    void bufferSizesAreReportedAsTheKernelAppliedThem() throws Exception {
        // Linux stores twice the requested size, capped at net.core.wmem_max / rmem_max (socket(7))
        long wmemMax = Long.parseLong(Files.readAllLines(Path.of("/proc/sys/net/core/wmem_max")).get(0).strip());
        long rmemMax = Long.parseLong(Files.readAllLines(Path.of("/proc/sys/net/core/rmem_max")).get(0).strip());
        TransferResult r = run(base(Protocol.TCP, AddressFamily.IPV4).sendBufferBytes(65536).receiveBufferBytes(98304)
                .bound(Bound.bytes(1_000_000)).build());
        assertThat(r.options().sendBufferRequested()).isEqualTo(65536);
        assertThat(r.options().sendBufferApplied()).isEqualTo((int) (2 * Math.min(65536, wmemMax)));
        assertThat(r.options().receiveBufferRequested()).isEqualTo(98304);
        assertThat(r.options().receiveBufferApplied()).isEqualTo((int) (2 * Math.min(98304, rmemMax)));
    }

    @Test
    void tcpPortInUseIsAUsageError() throws Exception {
        try (ServerSocketChannel taken = ServerSocketChannel.open()) {
            taken.bind(new InetSocketAddress("127.0.0.1", 0));
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            TransferSpec spec = base(Protocol.TCP, AddressFamily.IPV4).port(port).build();
            assertThatThrownBy(() -> Transports.byName("nio").open(spec, Clock.system()))
                    .isInstanceOfSatisfying(TransferException.class, e -> assertThat(e.isUsageError()).isTrue())
                    .hasMessage("TCP port " + port + " on 127.0.0.1 is already in use; allowed: a free port 1..65535, "
                            + "or 0 for an ephemeral port");
        }
    }

    @Test
    void udpPortInUseIsAUsageError() throws Exception {
        try (DatagramChannel taken = DatagramChannel.open()) {
            taken.bind(new InetSocketAddress("::1", 0));
            int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();
            TransferSpec spec = base(Protocol.UDP, AddressFamily.IPV6).port(port).build();
            assertThatThrownBy(() -> Transports.byName("nio").open(spec, Clock.system()))
                    .isInstanceOfSatisfying(TransferException.class, e -> assertThat(e.isUsageError()).isTrue())
                    .hasMessageStartingWith("UDP port " + port + " on 0:0:0:0:0:0:0:1 is already in use");
        }
    }

    @Test
    void aTransferRunsOnce() throws Exception {
        TransferSpec spec = base(Protocol.TCP, AddressFamily.IPV4).bound(Bound.bytes(1000)).build();
        try (Transfer t = Transports.byName("nio").open(spec, Clock.system())) {
            t.run();
            assertThatThrownBy(t::run).isInstanceOf(IllegalStateException.class)
                    .hasMessage("a transfer runs once; open a new one");
        }
    }
}
