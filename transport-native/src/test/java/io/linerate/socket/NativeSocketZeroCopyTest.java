package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.socket.NativeSocketTest.Pair;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The zero-copy primitives: sendfile(2) from a {@link PayloadFile} sends the file's bytes from the
 * offset given, and recv(2) with MSG_TRUNC counts the bytes it drops and sees the end of the stream.
 */
class NativeSocketZeroCopyTest {
    private static final int TIMEOUT_MS = 10_000;

    /** @return a direct buffer of {@code n} bytes, byte i = i mod 251 (a prime, so no power-of-two period) */
    private static ByteBuffer pattern(int n) {
        ByteBuffer b = ByteBuffer.allocateDirect(n);
        for (int i = 0; i < n; i++) {
            b.put(i, (byte) (i % 251));
        }
        return b;
    }

    @Test
    void sendfileSendsTheFilesBytesFromTheOffsetGiven() throws Exception {
        try (Pair p = Pair.open(); PayloadFile file = PayloadFile.of(pattern(10_000))) {
            assertThat(file.bytes()).isEqualTo(10_000);
            // bytes 7,000..9,999 of the file, then the whole file from byte 0
            int sent = 0;
            while (sent < 3000) {
                sent += Math.max(0, p.client.sendFile(file, 7000 + sent, 3000 - sent, 100));
            }
            sent = 0;
            while (sent < 10_000) {
                sent += Math.max(0, p.client.sendFile(file, sent, 10_000 - sent, 100));
            }
            p.client.shutdownOutput();

            ByteBuffer in = ByteBuffer.allocateDirect(13_000);
            long at = NativeSocket.address(in);
            int got = 0;
            int n;
            while ((n = p.server.receive(at + got, 13_000 - got, TIMEOUT_MS)) != 0) {
                got += Math.max(0, n);
            }
            assertThat(got).isEqualTo(13_000);
            for (int i = 0; i < 3000; i++) {
                assertThat(in.get(i)).as("byte %d", i).isEqualTo((byte) ((7000 + i) % 251));
            }
            for (int i = 0; i < 10_000; i++) {
                assertThat(in.get(3000 + i)).as("byte %d", 3000 + i).isEqualTo((byte) (i % 251));
            }
        }
    }

    @Test
    void msgTruncCountsTheBytesItDropsAndSeesTheEndOfTheStream() throws Exception {
        try (Pair p = Pair.open()) {
            ByteBuffer out = pattern(40_000);
            long at = NativeSocket.address(out);
            int sent = 0;
            while (sent < 40_000) {
                sent += Math.max(0, p.client.send(at + sent, 40_000 - sent, 100));
            }
            p.client.shutdownOutput();

            long dropped = 0;
            int calls = 0;
            int n;
            while ((n = p.server.receiveTruncated(16_384, TIMEOUT_MS)) != 0) {
                assertThat(n).isLessThanOrEqualTo(16_384);
                dropped += Math.max(0, n);
                calls++;
            }
            assertThat(dropped).isEqualTo(40_000);
            // 16 KiB at most per call: 3 calls at least
            assertThat(calls).isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void sendfileToAPeerThatWentAwayFailsNamingTheCall() throws Exception {
        try (Pair p = Pair.open(); PayloadFile file = PayloadFile.of(pattern(65_536))) {
            p.server.close();
            // the first sends may still be buffered; the peer's reset ends them with EPIPE or ECONNRESET
            assertThatThrownBy(() -> {
                for (int i = 0; i < 10_000; i++) {
                    p.client.sendFile(file, 0, 65_536, 100);
                }
            }).isInstanceOf(NativeSocketException.class).hasMessageStartingWith("sendfile(fd ")
                    .hasMessageMatching("(?s).*(EPIPE|ECONNRESET).*");
        }
    }

    @Test
    void anEmptyOrHeapPayloadIsRefused() {
        assertThatThrownBy(() -> PayloadFile.of(ByteBuffer.allocateDirect(0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("a payload file needs at least 1 byte, not 0");
        assertThatThrownBy(() -> PayloadFile.of(ByteBuffer.allocate(10))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("heap buffer");
    }
}
