package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.peers.iperf3.Iperf3Options;
import io.linerate.peers.iperf3.Iperf3Stream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * {@code stream -c HOST} and iperf3's short options, parsed only (no traffic): each command line
 * gives the spec and the iperf3 options that iperf3 3.12's meaning of it implies, with iperf3's
 * defaults (iperf3(1), iperf.h: port 5201, 10 s, UDP_RATE 1024 * 1024 bit/s per stream, 128 KiB
 * TCP writes, UDP datagrams of the TCP MSS, TOS 0).
 */
class Iperf3ClientOptionsTest {
    /** A command line parsed as {@code linerate stream} would parse it, its spec and its iperf3 options. */
    private record Parsed(StreamCommand command, TransferSpec spec, Iperf3Options options) {}

    private static Parsed parse(String... args) {
        StreamCommand c = new StreamCommand();
        Linerate.commandLine(c).parseArgs(args);
        TransferSpec spec = c.spec();
        return new Parsed(c, spec, Iperf3Stream.options((Iperf3Peer) spec.endpoint()));
    }

    /** The TCP MSS over IPv4 loopback, from the kernel's files: min(MTU, 65535) - 20 IP - 20 TCP - 12 timestamps (if on). */
    private static int loopbackMss4() throws IOException {
        Path mtu = Path.of("/sys/class/net/lo/mtu");
        Path ts = Path.of("/proc/sys/net/ipv4/tcp_timestamps");
        Assumptions.assumeTrue(Files.isReadable(mtu) && Files.isReadable(ts), "skipped: needs Linux's /sys and /proc");
        int m = Integer.parseInt(Files.readString(mtu, StandardCharsets.US_ASCII).strip());
        boolean timestamps = !Files.readString(ts, StandardCharsets.US_ASCII).strip().equals("0");
        return Math.min(m, 65535) - 20 - 20 - (timestamps ? 12 : 0);
    }

    @Test
    void clientAloneIsATenSecondTcpTestOfTheIperf3ServerOnPort5201() {
        Parsed p = parse("-c", "127.0.0.1");
        assertThat(p.command().peer.peer).isEqualTo("127.0.0.1:5201");
        assertThat(p.command().peer.protocol).isEqualTo("iperf3");
        assertThat(p.spec().protocol()).isEqualTo(Protocol.TCP);
        assertThat(p.spec().family()).isEqualTo(AddressFamily.IPV4);
        assertThat(p.spec().bound()).isEqualTo(Bound.duration(Duration.ofSeconds(10)));
        assertThat(p.spec().payloadBytes()).isEqualTo(128 * 1024);
        assertThat(p.spec().rateBitsPerSecond()).isZero(); // TCP: unlimited
        assertThat(p.spec().trafficClass()).isZero(); // iperf3's TOS, not linerate's CS1
        assertThat(p.spec().warmup()).isZero();
        assertThat(p.options()).isEqualTo(Iperf3Options.defaults());
    }

    @Test
    void udpAloneRunsAtIperf3sOneMegabitPerSecondInDatagramsOfTheTcpMss() throws IOException {
        Parsed p = parse("-c", "127.0.0.1", "-u");
        assertThat(p.spec().protocol()).isEqualTo(Protocol.UDP);
        // iperf.h: #define UDP_RATE (1024 * 1024) /* 1 Mbps */; iperf3 -u -J reports target_bitrate 1048576
        assertThat(p.spec().rateBitsPerSecond()).isEqualTo(1_048_576L);
        assertThat(p.spec().payloadBytes()).isEqualTo(loopbackMss4());
    }

    @Test
    void timeIsBareSeconds() {
        assertThat(parse("-c", "127.0.0.1", "-t", "10").spec().bound()).isEqualTo(Bound.duration(Duration.ofSeconds(10)));
        assertThat(parse("-c", "127.0.0.1", "-t", "3").spec().bound()).isEqualTo(Bound.duration(Duration.ofSeconds(3)));
    }

    @Test
    void bitrateIsDecimalBitsPerSecondPerStream() {
        assertThat(parse("-c", "127.0.0.1", "-b", "50M", "-u").spec().rateBitsPerSecond()).isEqualTo(50_000_000L);
        assertThat(parse("-c", "127.0.0.1", "-b", "1.5k").spec().rateBitsPerSecond()).isEqualTo(1_500L);
        // -b is each stream's; the spec's rate is the whole test's, which the client splits over the streams
        Parsed two = parse("-c", "127.0.0.1", "-u", "-b", "50M", "-P", "2");
        assertThat(two.spec().rateBitsPerSecond()).isEqualTo(100_000_000L);
        assertThat(two.options().parallel()).isEqualTo(2);
        assertThat(parse("-c", "127.0.0.1", "-u", "-P", "4").spec().rateBitsPerSecond()).isEqualTo(4 * 1_048_576L);
        assertThat(parse("-c", "127.0.0.1", "-u", "-b", "0").spec().rateBitsPerSecond()).isZero();
    }

    @Test
    void linerateRateStaysTheWholeTestsAndReplacesIperf3sUdpDefault() {
        assertThat(parse("-c", "127.0.0.1", "-u", "--rate", "3M", "-P", "3").spec().rateBitsPerSecond()).isEqualTo(3_000_000L);
    }

    @Test
    void lengthIsBytesPerWriteOrDatagram() {
        assertThat(parse("-c", "127.0.0.1", "-l", "1400").spec().payloadBytes()).isEqualTo(1400);
        assertThat(parse("-c", "127.0.0.1", "-u", "-l", "1400").spec().payloadBytes()).isEqualTo(1400);
        assertThat(parse("-c", "127.0.0.1", "-l", "64K").spec().payloadBytes()).isEqualTo(65_536);
    }

    @Test
    void parallelReverseAndBidir() {
        Parsed p = parse("-c", "127.0.0.1", "-P", "2", "-R");
        assertThat(p.options().parallel()).isEqualTo(2);
        assertThat(p.options().reverse()).isTrue();
        assertThat(parse("-c", "127.0.0.1", "--bidir").command().peer.bidir).isTrue();
    }

    @Test
    void windowSetsBothSocketBuffers() {
        TransferSpec s = parse("-c", "127.0.0.1", "-w", "256K").spec();
        assertThat(s.sendBufferBytes()).isEqualTo(262_144);
        assertThat(s.receiveBufferBytes()).isEqualTo(262_144);
    }

    @Test
    void familyFromTheFlagOrTheLiteral() {
        assertThat(parse("-c", "127.0.0.1", "-4").spec().family()).isEqualTo(AddressFamily.IPV4);
        Parsed six = parse("-c", "::1", "-6");
        assertThat(six.spec().family()).isEqualTo(AddressFamily.IPV6);
        assertThat(six.command().peer.peer).isEqualTo("[::1]:5201");
        assertThat(parse("-c", "::1").spec().family()).isEqualTo(AddressFamily.IPV6);
        assertThat(parse("-c", "[::1]").command().peer.peer).isEqualTo("[::1]:5201");
        assertThatThrownBy(() -> parse("-c", "::1", "-4")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-c ::1 has no IPv4 address; leave -4 out or give a host that has one");
    }

    @Test
    void aHostThatIsEmptyOrCarriesAPortIsRefusedWithTheFormAllowed() {
        // the JDK resolves "" to loopback: the run would go to 127.0.0.1 unasked
        assertThatThrownBy(() -> parse("-c", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-c '' names no host; allowed: a host name, an IPv4 address or an IPv6 address, such as "
                        + "-c 192.0.2.1");
        assertThatThrownBy(() -> parse("-c", "127.0.0.1:5202")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-c 127.0.0.1:5202 carries a port; allowed: the host alone, with the port in -p (1..65535), "
                        + "such as -c 127.0.0.1 -p 5202");
        assertThatThrownBy(() -> parse("-c", "[::1]:5202")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("-c [::1]:5202 carries a port").hasMessageEndingWith("such as -c [::1] -p 5202");
        assertThatThrownBy(() -> parse("-c", "1:2:3")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("-c 1:2:3 is not an IPv6 address the JDK can use");
    }

    @Test
    void anIpv4MappedLiteralIsTheIpv4AddressItMaps() {
        Parsed p = parse("-c", "::ffff:127.0.0.1");
        assertThat(p.command().peer.peer).isEqualTo("127.0.0.1:5201");
        assertThat(p.spec().family()).isEqualTo(AddressFamily.IPV4);
    }

    @Test
    void portIntervalAndJson() {
        assertThat(parse("-c", "127.0.0.1", "-p", "5999").command().peer.peer).isEqualTo("127.0.0.1:5999");
        assertThat(parse("-c", "127.0.0.1", "-i", "0.5").spec().interval()).isEqualTo(Duration.ofMillis(500));
        assertThat(parse("-c", "127.0.0.1", "-J").command().transfer.outputFormat()).isEqualTo(OutputFormat.json);
    }

    @Test
    void linerateTclassIsKept() {
        assertThat(parse("-c", "127.0.0.1", "--tclass", "0x10").spec().trafficClass()).isEqualTo(0x10);
    }

    @Test
    void givesTheSameSpecAsTheLongOptions() {
        Parsed shortForm = parse("-c", "127.0.0.1", "-p", "5999", "-t", "3", "-u", "-b", "50M", "-l", "1400", "-w", "256K",
                "-P", "2", "-R", "-i", "2");
        Parsed longForm = parse("--peer", "127.0.0.1:5999", "--peer-protocol", "iperf3", "--duration", "3s", "--protocol",
                "udp", "--rate", "100M", "--payload", "1400", "--sndbuf", "256K", "--rcvbuf", "256K", "--parallel", "2",
                "--reverse", "--interval", "2s", "--tclass", "0");
        assertThat(describe(shortForm.spec())).isEqualTo(describe(longForm.spec()));
        assertThat(shortForm.options()).isEqualTo(longForm.options());
        assertThat(shortForm.command().peer.peer).isEqualTo(longForm.command().peer.peer);
    }

    private static List<Object> describe(TransferSpec s) {
        return List.of(s.toString(), s.protocol(), s.family(), s.payloadBytes(), s.bound(), s.rateBitsPerSecond(),
                s.trafficClass(), s.sendBufferBytes(), s.receiveBufferBytes(), s.warmup(), s.interval(), s.port(),
                s.ioTimeout(), s.pacingTimer(), s.noDelay(), s.endpoint());
    }

    @Test
    void headerSaysWhichIperf3OptionsGaveTheRunWithDefaultsFilledIn() throws IOException {
        Parsed p = parse("-c", "127.0.0.1", "-u", "-b", "1M", "-P", "2", "-t", "3");
        List<String> udp = p.command().iperf3Client.header(p.spec(), p.command().peer);
        assertThat(udp).hasSize(2);
        assertThat(udp.get(0)).isEqualTo("# iperf3 client options: -c 127.0.0.1 -p 5201 -t 3 -u -b 1000000 -l "
                + loopbackMss4() + " -P 2 -4 (iperf3's meanings)");
        assertThat(udp.get(1)).startsWith("# -l " + loopbackMss4() + ": the path's TCP MSS, as iperf3's (derived: MTU " + mtu());
        Parsed tcp = parse("-c", "127.0.0.1", "-R", "-w", "256K", "-i", "0.5");
        assertThat(tcp.command().iperf3Client.header(tcp.spec(), tcp.command().peer)).containsExactly(
                "# iperf3 client options: -c 127.0.0.1 -p 5201 -t 10 -b 0 -l 131072 -P 1 -R -w 262144 -4 -i 0.5 "
                        + "(iperf3's meanings)",
                "# note: -i: interval lines count linerate's own sends or receives; the server's counts are in the summary");
    }

    private static int mtu() throws IOException {
        return Integer.parseInt(Files.readString(Path.of("/sys/class/net/lo/mtu"), StandardCharsets.US_ASCII).strip());
    }
}
