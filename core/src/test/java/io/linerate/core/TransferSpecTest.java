package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class TransferSpecTest {

    @Test
    void defaultsAreZperfs() {
        TransferSpec s = TransferSpec.builder().build();
        assertThat(s.protocol()).isEqualTo(Protocol.TCP);
        assertThat(s.payloadBytes()).isEqualTo(1220);
        assertThat(s.rateBitsPerSecond()).isZero();
        assertThat(s.trafficClass()).isEqualTo(0x20);
        assertThat(s.bound()).isEqualTo(new Bound(Bound.Kind.DURATION, 10_000_000_000L));
    }

    @Test
    void theUnfragmentedUdpPayloadIsTheMtuLessHeadersCappedAt1460() {
        // Ethernet MTU 1500: IPv4 1500 - 20 - 8 = 1472, capped at 1460; IPv6 1500 - 40 - 8 = 1452
        assertThat(PayloadLimits.unfragmentedUdpPayloadBytes(AddressFamily.IPV4, 1500)).isEqualTo(1460);
        assertThat(PayloadLimits.unfragmentedUdpPayloadBytes(AddressFamily.IPV6, 1500)).isEqualTo(1452);
        // the namespace's loopback MTU 1280: 1280 - 28 = 1252, 1280 - 48 = 1232
        assertThat(PayloadLimits.unfragmentedUdpPayloadBytes(AddressFamily.IPV4, 1280)).isEqualTo(1252);
        assertThat(PayloadLimits.unfragmentedUdpPayloadBytes(AddressFamily.IPV6, 1280)).isEqualTo(1232);
        // the host's loopback MTU 65536: far above, so the cap
        assertThat(PayloadLimits.unfragmentedUdpPayloadBytes(AddressFamily.IPV4, 65536)).isEqualTo(1460);
        assertThat(PayloadLimits.unfragmentedUdpPayloadBytes(AddressFamily.IPV6, 65536)).isEqualTo(1460);
        // linerate's 32-byte header needs 32 + 20 + 8 = 60 bytes of MTU over IPv4
        assertThatThrownBy(() -> PayloadLimits.unfragmentedUdpPayloadBytes(AddressFamily.IPV4, 59))
                .hasMessage("MTU 59 bytes is out of range for UDP over IPv4; allowed: 60 bytes or more");
    }

    @Test
    void udpPayloadLimitsFollowTheIpHeader() {
        // 65535 - 20 (IPv4 header) - 8 (UDP header); IPv6's payload length excludes its 40-byte header
        assertThat(AddressFamily.IPV4.maxUdpPayloadBytes()).isEqualTo(65507);
        assertThat(AddressFamily.IPV6.maxUdpPayloadBytes()).isEqualTo(65527);
        assertThat(udp(AddressFamily.IPV4, 65507).build().payloadBytes()).isEqualTo(65507);
        assertThat(udp(AddressFamily.IPV6, 65527).build().payloadBytes()).isEqualTo(65527);
        assertThatThrownBy(() -> udp(AddressFamily.IPV4, 65508).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("payload 65508 bytes is out of range: UDP over IPv4 allows 32..65507 bytes");
        assertThatThrownBy(() -> udp(AddressFamily.IPV6, 65528).build())
                .hasMessage("payload 65528 bytes is out of range: UDP over IPv6 allows 32..65527 bytes");
        assertThatThrownBy(() -> udp(AddressFamily.IPV4, 31).build())
                .hasMessageContaining("payload 31 bytes").hasMessageContaining("32..65507");
    }

    @Test
    void zeroPayloadIsRejectedForTcp() {
        assertThatThrownBy(() -> TransferSpec.builder().payloadBytes(0).build())
                .hasMessage("payload 0 bytes is out of range: TCP allows 1..67108864 bytes");
    }

    @Test
    void durationMustBePositive() {
        assertThatThrownBy(() -> TransferSpec.builder().duration(Duration.ZERO))
                .hasMessage("duration 0 ms is out of range; allowed: > 0");
        assertThatThrownBy(() -> TransferSpec.builder().duration(Duration.ofSeconds(-1)))
                .hasMessage("duration -1000 ms is out of range; allowed: > 0");
        assertThatThrownBy(() -> Bound.messages(0)).hasMessage("message count 0 is out of range; allowed: > 0");
        assertThatThrownBy(() -> Bound.bytes(-5)).hasMessage("byte count -5 is out of range; allowed: > 0");
    }

    @Test
    void otherRangesNameTheValue() {
        assertThatThrownBy(() -> TransferSpec.builder().rateBitsPerSecond(-1).build())
                .hasMessage("rate -1 bit/s is out of range; allowed: 0 (unlimited) or more");
        assertThatThrownBy(() -> TransferSpec.builder().port(65536).build())
                .hasMessage("port 65536 is out of range; allowed: 0 (ephemeral)..65535");
        assertThatThrownBy(() -> TransferSpec.builder().trafficClass(256).build())
                .hasMessage("traffic class 256 is out of range; allowed: 0..255");
        assertThatThrownBy(() -> TransferSpec.builder().interval(Duration.ofMillis(5)).build())
                .hasMessage("interval 5 ms is out of range; allowed: 10 ms..1 day");
        // 1 ns is below the 10 ms minimum, and named as given rather than truncated to 0 ms
        assertThatThrownBy(() -> TransferSpec.builder().interval(Duration.ofNanos(1)).build())
                .hasMessage("interval 1 ns is out of range; allowed: 10 ms..1 day");
        assertThatThrownBy(() -> TransferSpec.builder().warmup(Duration.ofMillis(-1)).build())
                .hasMessage("warm-up -1 ms is out of range; allowed: 0 ms..1 day");
        assertThatThrownBy(() -> TransferSpec.builder().sendBufferBytes(-1).build())
                .hasMessageContaining("send buffer -1 bytes");
        assertThatThrownBy(() -> TransferSpec.builder().protocol(Protocol.UDP).noDelay(true).build())
                .hasMessage("TCP_NODELAY applies to TCP only, not udp");
    }

    @Test
    void ratesAbove32BitsAreAccepted() {
        long tenGigabit = 10_000_000_000L;
        assertThat(TransferSpec.builder().rateBitsPerSecond(tenGigabit).build().rateBitsPerSecond()).isEqualTo(tenGigabit);
    }

    @Test
    void parsersNameTheAllowedValues() {
        assertThatThrownBy(() -> Protocol.parse("sctp")).hasMessage("unknown protocol 'sctp'; allowed: tcp, udp");
        assertThatThrownBy(() -> AddressFamily.parse("5")).hasMessage("unknown address family '5'; allowed: 4, 6");
        assertThat(AddressFamily.parse("6")).isEqualTo(AddressFamily.IPV6);
    }

    @Test
    void thePacingTimerIsIperf3sMillisecondByDefaultAndZeroToTenMilliseconds() {
        assertThat(TransferSpec.builder().build().pacingTimer()).isEqualTo(Duration.ofMillis(1));
        assertThat(TransferSpec.builder().pacingTimer(Duration.ZERO).build().pacingTimer()).isZero();
        assertThat(TransferSpec.builder().pacingTimer(Duration.ofMillis(10)).build().toBuilder().build().pacingTimer())
                .isEqualTo(Duration.ofMillis(10));
        assertThatThrownBy(() -> TransferSpec.builder().pacingTimer(Duration.ofNanos(10_000_001)).build())
                .hasMessage("pacing timer 10000001 ns is out of range; allowed: 0 (a wake-up per message)..10000000 ns (10 ms)");
        assertThatThrownBy(() -> TransferSpec.builder().pacingTimer(Duration.ofNanos(-1)).build())
                .hasMessage("pacing timer -1 ns is out of range; allowed: 0 (a wake-up per message)..10000000 ns (10 ms)");
        assertThatThrownBy(() -> TransferSpec.builder().pacingTimer(Duration.ofDays(400)).build())
                .hasMessage("pacing timer PT9600H is out of range; allowed: 0 (a wake-up per message)..10000000 ns (10 ms)");
    }

    private static TransferSpec.Builder udp(AddressFamily f, int payload) {
        return TransferSpec.builder().protocol(Protocol.UDP).family(f).payloadBytes(payload);
    }
}
