package io.linerate.socket.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.socket.NativeSocket;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Where the kernel refuses UDP GSO or GRO, --gso is refused with the option, the errno and the kernel version. */
class UdpOffloadTest {

    @Test
    void aSocketThatRefusesTheOptionRefusesGsoNamingWhy() throws Exception {
        // UDP_SEGMENT and UDP_GRO are options of SOL_UDP, which a TCP socket does not know: ENOPROTOOPT (ip(7))
        try (NativeSocket tcp = NativeSocket.tcp(AddressFamily.IPV4)) {
            assertThatThrownBy(() -> UdpOffload.enable(tcp, true, 1400)).isInstanceOf(IOException.class)
                    .hasMessageStartingWith("--gso is refused: setsockopt(fd " + tcp.fd() + ", UDP_SEGMENT, 1400): ENOPROTOOPT")
                    .hasMessageEndingWith("UDP GSO needs Linux 4.18+ (UDP_SEGMENT) on the sender and UDP GRO Linux 5.0+ "
                            + "(UDP_GRO) on the receiver");
            assertThatThrownBy(() -> UdpOffload.enable(tcp, false, 1400))
                    .hasMessageStartingWith("--gso is refused: setsockopt(fd " + tcp.fd() + ", UDP_GRO, 1): ENOPROTOOPT");
        }
    }

    @Test
    void aSegmentSizeTheKernelRejectsIsRefused() throws Exception {
        // udp(7): UDP_SEGMENT takes 0..65535
        try (NativeSocket udp = NativeSocket.udp(AddressFamily.IPV4)) {
            assertThatThrownBy(() -> UdpOffload.enable(udp, true, 70_000))
                    .hasMessageStartingWith("--gso is refused: setsockopt(fd " + udp.fd() + ", UDP_SEGMENT, 70000): EINVAL");
        }
    }

    @Test
    void aGsoSendHoldsAsManyPayloadsAsOneDatagramCarriesUpToSixtyFour() {
        assertThat(UdpOffload.segmentsPerSend(1400)).isEqualTo(46); // 46 × 1400 = 64400 ≤ 65507
        assertThat(UdpOffload.segmentsPerSend(32)).isEqualTo(64);
        assertThat(UdpOffload.segmentsPerSend(40_000)).isEqualTo(1);
    }
}
