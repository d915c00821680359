package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.spi.Transport;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AfPacketTransportTest {
    private static final String LINUX = "Linux";
    /** Docker's default capability set: 0xa80425fb; its low 16 bits 0x25fb = 0b0010_0101_1111_1011 have bit 13 (0x2000) set. */
    private static final String DOCKER_DEFAULT = "CapEff:\t00000000a80425fb";
    /** The same set with CAP_NET_RAW dropped (docker --cap-drop NET_RAW): 0xa80425fb - 0x2000 = 0xa80405fb. */
    private static final String DOCKER_NO_NET_RAW = "CapEff:\t00000000a80405fb";

    private static AfPacketTransport transport(String os, List<String> status, Optional<String> nativeCause) {
        return new AfPacketTransport(() -> os, () -> status, () -> nativeCause);
    }

    @Test
    void isRegisteredUnderItsNameForRawFramesAlone() {
        Transport t = Transports.byName("afpacket");
        assertThat(t).isInstanceOf(AfPacketTransport.class);
        assertThat(t.patterns()).containsExactly(Pattern.RAW_FRAMES);
    }

    @Test
    void aSetWithBit13HoldsCapNetRaw() {
        // only bit 13: 2^13 = 8192 = 0x2000
        assertThat(NetRawCapability.missing(List.of("Name:\tjava", "CapEff:\t0000000000002000"))).isEmpty();
        assertThat(NetRawCapability.missing(List.of(DOCKER_DEFAULT))).isEmpty();
        // root on a host: every capability up to CAP_CHECKPOINT_RESTORE (40), 41 bits = 0x1ffffffffff
        assertThat(NetRawCapability.missing(List.of("CapEff:\t000001ffffffffff"))).isEmpty();
        assertThat(NetRawCapability.capEff(List.of(DOCKER_NO_NET_RAW))).hasValue(0xa80405fbL);
    }

    @Test
    void aSetWithoutBit13IsUnavailableNamingTheSetAndTheUser() {
        Optional<String> rootInContainer = NetRawCapability.missing(
                List.of("Uid:\t0\t0\t0\t0", DOCKER_NO_NET_RAW, "CapBnd:\t00000000a80405fb"));
        assertThat(rootInContainer).hasValueSatisfying(c -> assertThat(c)
                .startsWith("no CAP_NET_RAW: the effective capability set (CapEff 00000000a80405fb in /proc/self/status) has bit 13 clear")
                .contains("runs as root (uid 0), but its effective set lacks it"));
        // bit 12 (0x1000, CAP_NET_ADMIN) and bit 14 (0x4000, CAP_IPC_LOCK) are not bit 13
        Optional<String> user = NetRawCapability.missing(List.of("Uid:\t1000\t1000\t1000\t1000", "CapEff:\t0000000000005000"));
        assertThat(user).hasValueSatisfying(c -> assertThat(c).contains("runs as uid 1000 without it"));
    }

    @Test
    void withoutAReadableSetTheSocketProbeDecides() {
        assertThat(NetRawCapability.missing(List.of())).isEmpty();
        assertThat(NetRawCapability.missing(List.of("CapEff:\tnot-hex"))).isEmpty();
        assertThat(transport(LINUX, List.of(), Optional.of("no CAP_NET_RAW: socket(AF_PACKET, SOCK_RAW) failed with EPERM"))
                .unavailabilityCause()).contains("no CAP_NET_RAW: socket(AF_PACKET, SOCK_RAW) failed with EPERM");
    }

    @Test
    void theCauseIsNotLinuxThenNoCapabilityThenTheNativeLibrary() {
        String nativeCause = "native library not loaded: the jar's /META-INF/native/linux-x86_64/liblinerate-afpacket.so is not "
                + "on the class path; System.loadLibrary(\"linerate-afpacket\") with java.library.path=: no linerate-afpacket";
        assertThat(transport("Mac OS X", List.of(DOCKER_NO_NET_RAW), Optional.of(nativeCause)).unavailabilityCause())
                .contains("not Linux: os.name is 'Mac OS X'; AF_PACKET exists only on Linux");
        assertThat(transport(LINUX, List.of(DOCKER_NO_NET_RAW), Optional.of(nativeCause)).unavailabilityCause())
                .hasValueSatisfying(c -> assertThat(c).startsWith("no CAP_NET_RAW"));
        AfPacketTransport noLibrary = transport(LINUX, List.of(DOCKER_DEFAULT), Optional.of(nativeCause));
        assertThat(noLibrary.unavailabilityCause()).contains(nativeCause);
        assertThat(noLibrary.isAvailable()).isFalse();
        assertThat(transport(LINUX, List.of(DOCKER_DEFAULT), Optional.empty()).isAvailable()).isTrue();
    }

    @Test
    void constructingReadsNothingAndTheCauseIsFoundOnce() {
        AtomicInteger reads = new AtomicInteger();
        AfPacketTransport t = new AfPacketTransport(() -> LINUX, () -> {
            reads.incrementAndGet();
            return List.of(DOCKER_NO_NET_RAW);
        }, () -> Optional.empty());
        assertThat(reads).hasValue(0);
        assertThat(t.name()).isEqualTo("afpacket");
        assertThat(t.unavailabilityCause()).isPresent();
        assertThat(t.unavailabilityCause()).isPresent();
        assertThat(reads).hasValue(1);
    }

    @Test
    void aPeerWithoutItsProtocolOnTheClassPathOrAnotherPatternIsRefusedWithAReason() {
        AfPacketTransport t = transport(LINUX, List.of(DOCKER_DEFAULT), Optional.empty());
        RawTransferSpec local = RawTransferSpec.builder("lrt0a", "lrt0b").build();
        RawTransferSpec remote = RawTransferSpec.txOnly("lrt0a").endpoint(Endpoint.remote("198.18.0.2", 7001))
                .peerInterface("eth1").build();
        assertThat(t.unsupportedReason(local)).isEmpty();
        // this module's tests have no peer protocol on the class path (linerate-peers is not a dependency)
        String missing = "no peer protocol on the class path reaches Remote 198.18.0.2:7001: add linerate-peers";
        assertThat(t.unsupportedReason(remote)).contains(missing);
        assertThatThrownBy(() -> t.open((MeasurementSpec) remote, Clock.system()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(missing);
        assertThatThrownBy(() -> t.open(remote, Clock.system())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("peer 198.18.0.2:7001: this host's interfaces alone run as a RawMeasurement");
        assertThat(t.unsupportedReason(PingPongSpec.builder().build())).contains("the afpacket transport runs raw-frames, not ping-pong");
        assertThat(Transports.byName("afpacket").unsupportedReason(remote)).isPresent();
    }

    @Test
    void openingOnAHostWithoutTheCapabilityIsAUsageErrorSayingWhy() {
        AfPacketTransport t = transport(LINUX, List.of("Uid:\t1000\t1000\t1000\t1000", DOCKER_NO_NET_RAW), Optional.empty());
        assertThatThrownBy(() -> t.open(RawTransferSpec.builder("lrt0a", "lrt0b").build(), Clock.system()))
                .isInstanceOf(TransferException.class)
                .hasMessageStartingWith("AF_PACKET is not available: no CAP_NET_RAW")
                .matches(e -> ((TransferException) e).isUsageError());
    }

    @Test
    void aMeasurementRunsOnceAndNotAfterClose() throws Exception {
        AfPacketTransport t = transport(LINUX, List.of(DOCKER_DEFAULT), Optional.empty());
        RawMeasurement m = t.open(RawTransferSpec.builder("lrt0a", "lrt0b").build(), Clock.system());
        m.close();
        assertThatThrownBy(m::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }
}
