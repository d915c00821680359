package io.linerate.socket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.spi.latency.MessageEnd;
import io.linerate.socket.NativeSocket;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A ping-pong end waits inside recv(2) on a blocking socket with a receive timeout, yet stays
 * bounded: a deadline, a stop request and the peer's datagram each end its wait.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeMessageEndTest {
    /** O_NONBLOCK of {@code <asm-generic/fcntl.h>}, octal 04000. */
    private static final int O_NONBLOCK = 04000;

    /** @return the open file status flags of one of this process's descriptors, from /proc/self/fdinfo (proc(5)) */
    private static int flags(int fd) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/fdinfo/" + fd))) {
            if (line.startsWith("flags:")) {
                return Integer.parseInt(line.substring("flags:".length()).strip(), 8);
            }
        }
        throw new IOException("no flags line for fd " + fd);
    }

    @Test
    void theEndMakesItsSocketBlockingAndStillEndsEachWait() throws Exception {
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        try (NativeSocket a = NativeSocket.udp(AddressFamily.IPV4); NativeSocket b = NativeSocket.udp(AddressFamily.IPV4)) {
            a.bind(lo, 0);
            b.bind(lo, 0);
            a.connect(lo, b.localPort(), 1000);
            b.connect(lo, a.localPort(), 1000);
            assertThat(flags(a.fd()) & O_NONBLOCK).as("opened non-blocking").isEqualTo(O_NONBLOCK);
            NativeMessageEnd end = new NativeMessageEnd(a, true);
            NativeMessageEnd peer = new NativeMessageEnd(b, true);
            assertThat(flags(a.fd()) & O_NONBLOCK).as("made blocking by the end").isZero();

            ByteBuffer in = ByteBuffer.allocateDirect(64);
            // nothing arrives: the deadline ends the wait, one receive timeout after it at most
            assertThat(end.read(in, System.nanoTime() + 30_000_000L, false)).isEqualTo(MessageEnd.TIMEOUT);
            // a stop request ends a wait with no deadline
            end.requestStop();
            assertThat(end.read(in, MessageEnd.NO_DEADLINE, false)).isEqualTo(MessageEnd.STOPPED);

            ByteBuffer out = ByteBuffer.allocateDirect(64);
            out.putLong(0, 0x1122334455667788L).limit(40);
            assertThat(peer.write(out, MessageEnd.NO_DEADLINE)).isEqualTo(MessageEnd.OK);
            NativeMessageEnd again = new NativeMessageEnd(a, true);
            in.clear();
            assertThat(again.read(in, System.nanoTime() + 10_000_000_000L, false)).isEqualTo(MessageEnd.OK);
            assertThat(in.position()).isEqualTo(40);
            assertThat(in.getLong(0)).isEqualTo(0x1122334455667788L);
        }
    }
}
