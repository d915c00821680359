package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The fixed-size pieces of iperf3's protocol against bytes built by hand from iperf3's source. */
class Iperf3WireTest {

    private static ByteBuffer bytes(int... b) {
        ByteBuffer buf = ByteBuffer.allocate(b.length);
        for (int v : b) {
            buf.put((byte) v);
        }
        return buf.flip();
    }

    @Test
    void stateBytesAreIperf3sValues() {
        // iperf_api.h: TEST_START 1 ... IPERF_DONE 16, ACCESS_DENIED -1, SERVER_ERROR -2
        assertThat(new byte[] {Iperf3State.TEST_START, Iperf3State.TEST_RUNNING, Iperf3State.TEST_END,
                Iperf3State.PARAM_EXCHANGE, Iperf3State.CREATE_STREAMS, Iperf3State.SERVER_TERMINATE,
                Iperf3State.CLIENT_TERMINATE, Iperf3State.EXCHANGE_RESULTS, Iperf3State.DISPLAY_RESULTS,
                Iperf3State.IPERF_DONE, Iperf3State.ACCESS_DENIED, Iperf3State.SERVER_ERROR})
                .containsExactly(1, 2, 4, 9, 10, 11, 12, 13, 14, 16, -1, -2);
        // 0xff on the wire is the signed byte -1
        assertThat(Iperf3State.name((byte) 0xff)).isEqualTo("ACCESS_DENIED");
        assertThat(Iperf3State.name((byte) 0xfe)).isEqualTo("SERVER_ERROR");
        assertThat(Iperf3State.name((byte) 3)).isEqualTo("unknown state 3");
    }

    @Test
    void jsonIsPrefixedByItsBigEndianLength() {
        ByteBuffer b = Iperf3Wire.lengthPrefixed("{}".getBytes(StandardCharsets.UTF_8));
        // 2 bytes of JSON: 00 00 00 02, then '{' 0x7b and '}' 0x7d
        assertThat(b).isEqualTo(bytes(0, 0, 0, 2, 0x7b, 0x7d));
    }

    @Test
    void jsonLengthIsReadBigEndianAndBounded() throws Exception {
        assertThat(Iperf3Wire.jsonLength(bytes(0, 0, 1, 0x10))).isEqualTo(272); // 0x110
        assertThat(Iperf3Wire.jsonLength(bytes(0, 0x10, 0, 0))).isEqualTo(1 << 20); // the largest accepted
        assertThatThrownBy(() -> Iperf3Wire.jsonLength(bytes(0, 0x10, 0, 1)))
                .isInstanceOf(Iperf3Exception.class).hasMessageContaining("1048577 bytes was announced; allowed: 0..1048576");
        // 2^31, negative as a signed int, is read unsigned and refused
        assertThatThrownBy(() -> Iperf3Wire.jsonLength(bytes(0x80, 0, 0, 0)))
                .isInstanceOf(Iperf3Exception.class).hasMessageContaining("2147483648 bytes");
    }

    @Test
    void cookieIs36CharactersAndANul() {
        byte[] c = Iperf3Wire.cookie(new Random(1));
        assertThat(c).hasSize(37);
        assertThat(c[36]).isZero();
        assertThat(new String(c, 0, 36, StandardCharsets.US_ASCII)).matches("[a-z2-7]{36}");
    }

    @Test
    void udpConnectMessageIsInHostOrder() {
        ByteBuffer m = Iperf3Wire.udpConnectMessage();
        // 0x36373839: "6789" big-endian, "9876" little-endian (x86, arm64)
        ByteBuffer expected = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN
                ? bytes('9', '8', '7', '6') : bytes('6', '7', '8', '9');
        assertThat(m.position(0).limit(4)).isEqualTo(expected);
    }

    @Test
    void udpConnectReplyIsAcceptedInBothOrdersAndLegacy() {
        assertThat(Iperf3Wire.isUdpConnectReply(bytes('9', '8', '7', '6'))).isTrue(); // 0x39383736 big-endian
        assertThat(Iperf3Wire.isUdpConnectReply(bytes('6', '7', '8', '9'))).isTrue(); // the same, little-endian
        // 987654321 = 0x3ADE68B1, the legacy reply
        assertThat(Iperf3Wire.isUdpConnectReply(bytes(0x3a, 0xde, 0x68, 0xb1))).isTrue();
        assertThat(Iperf3Wire.isUdpConnectReply(bytes(0xb1, 0x68, 0xde, 0x3a))).isTrue();
        assertThat(Iperf3Wire.isUdpConnectReply(bytes('6', '7', '8', '8'))).isFalse();
    }

    @Test
    void datagramHeaderWith32BitCounter() {
        ByteBuffer b = ByteBuffer.allocate(20);
        // 1700000000.123456 s: seconds 0x6553F100, microseconds 123456 = 0x0001E240; sequence 7
        Iperf3DatagramHeader.write(b, 1_700_000_000_123_456L, 7, false);
        assertThat(b.position(0).limit(12)).isEqualTo(bytes(0x65, 0x53, 0xf1, 0x00, 0x00, 0x01, 0xe2, 0x40, 0, 0, 0, 7));
        ByteBuffer in = bytes(0x65, 0x53, 0xf1, 0x00, 0x00, 0x01, 0xe2, 0x40, 0xff, 0xff, 0xff, 0xff);
        assertThat(Iperf3DatagramHeader.sequence(in, false)).isEqualTo(4_294_967_295L); // unsigned 2^32 - 1
        assertThat(Iperf3DatagramHeader.sendMicros(in)).isEqualTo(1_700_000_000_123_456L);
        assertThat(Iperf3DatagramHeader.bytes(false)).isEqualTo(12);
    }

    @Test
    void datagramHeaderWith64BitCounter() {
        ByteBuffer b = ByteBuffer.allocate(20);
        // sequence 2^32 + 2 = 0x0000000100000002, after the same 8 bytes of time
        Iperf3DatagramHeader.write(b, 1_700_000_000_123_456L, 4_294_967_298L, true);
        assertThat(b.position(0).limit(16)).isEqualTo(bytes(0x65, 0x53, 0xf1, 0x00, 0x00, 0x01, 0xe2, 0x40,
                0, 0, 0, 1, 0, 0, 0, 2));
        assertThat(Iperf3DatagramHeader.sequence(bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2), true))
                .isEqualTo(4_294_967_298L);
        assertThat(Iperf3DatagramHeader.bytes(true)).isEqualTo(16);
    }

    @Test
    void datagramIndexIsTheSequenceNumberLessOneAndMinusOneForNumbersIperf3NeverSends() {
        // 32-bit 1 is iperf3's first datagram: index 0; unsigned 0xffffffff = 4294967295: index 4294967294
        assertThat(Iperf3DatagramHeader.index(bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1), false)).isZero();
        assertThat(Iperf3DatagramHeader.index(bytes(0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff), false))
                .isEqualTo(4_294_967_294L);
        // sequence 0 is never sent
        assertThat(Iperf3DatagramHeader.index(bytes(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), false)).isEqualTo(-1);
        // 64-bit 0x8000000000000000 is -2^63 as a signed long; less one it would wrap to 2^63 - 1
        assertThat(Iperf3DatagramHeader.index(bytes(0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0), true))
                .isEqualTo(-1);
        // 64-bit 0x7fffffffffffffff = 2^63 - 1, the largest: index 2^63 - 2
        assertThat(Iperf3DatagramHeader.index(bytes(0, 0, 0, 0, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff),
                true)).isEqualTo(Long.MAX_VALUE - 1);
    }
}
