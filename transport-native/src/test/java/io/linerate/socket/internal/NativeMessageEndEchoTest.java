package io.linerate.socket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.spi.latency.MessageEnd;
import io.linerate.socket.NativeSocket;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A native ping-pong end times a round trip by stamps its native calls take right around send(2)
 * and recv(2), on {@link System#nanoTime()}'s clock, and answers as an echo end in one native call:
 * over TCP, over connected UDP and over UDP sending to a target.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeMessageEndEchoTest {
    private static final InetAddress LO = AddressFamily.IPV4.loopbackAddress();
    private static final long WAIT = 10_000_000_000L;

    /** @return a direct buffer of {@code n} bytes 0, 1, 2, ... (mod 251) */
    private static ByteBuffer pattern(int n) {
        ByteBuffer b = ByteBuffer.allocateDirect(n);
        for (int i = 0; i < n; i++) {
            b.put(i, (byte) (i % 251));
        }
        return b;
    }

    /** A connected TCP pair: [0] the connecting socket, [1] the accepted one. */
    private static NativeSocket[] tcpPair() throws Exception {
        try (NativeSocket listener = NativeSocket.tcp(AddressFamily.IPV4)) {
            listener.bindAndListen(LO, 0, 1);
            NativeSocket client = NativeSocket.tcp(AddressFamily.IPV4);
            try {
                client.connect(LO, listener.localPort(), 5000);
                return new NativeSocket[] {client, listener.accept(5000)};
            } catch (Exception e) {
                client.close();
                throw e;
            }
        }
    }

    /** A UDP pair on loopback, each end connected to the other or sending to it as its target. */
    private static NativeSocket[] udpPair(boolean connect) throws Exception {
        NativeSocket a = NativeSocket.udp(AddressFamily.IPV4);
        NativeSocket b = NativeSocket.udp(AddressFamily.IPV4);
        try {
            a.bind(LO, 0);
            b.bind(LO, 0);
            if (connect) {
                a.connect(LO, b.localPort(), 1000);
                b.connect(LO, a.localPort(), 1000);
            } else {
                a.target(LO, b.localPort());
                b.target(LO, a.localPort());
            }
            return new NativeSocket[] {a, b};
        } catch (Exception e) {
            a.close();
            b.close();
            throw e;
        }
    }

    /**
     * One round trip, the echo end answering with {@link MessageEnd#echo}: the answer is the message,
     * and the client's stamps lie inside the readings taken around its calls, the receive's after the
     * echo end was asked to answer (it cannot complete before the answer is sent).
     */
    private static void roundTrip(NativeSocket[] pair, boolean datagram, int size, int echoCapacity) throws Exception {
        try (NativeMessageEnd client = new NativeMessageEnd(pair[0], datagram);
             NativeMessageEnd echo = new NativeMessageEnd(pair[1], datagram)) {
            assertThat(client.stampsCalls()).isTrue();
            ByteBuffer tx = pattern(size);
            ByteBuffer echoBuffer = ByteBuffer.allocateDirect(echoCapacity);
            ByteBuffer rx = ByteBuffer.allocateDirect(size);

            long beforeWrite = System.nanoTime();
            assertThat(client.write(tx, System.nanoTime() + WAIT)).isEqualTo(MessageEnd.OK);
            long afterWrite = System.nanoTime();
            // a TCP echo takes the message in pieces of at most its buffer's capacity; each is answered
            int echoed = 0;
            long beforeEcho = System.nanoTime();
            while (echoed < size) {
                assertThat(echo.echo(echoBuffer, WAIT)).isEqualTo(MessageEnd.OK);
                assertThat(echoBuffer.position()).as("answered whole").isEqualTo(echoBuffer.limit());
                echoed += echoBuffer.limit();
            }
            assertThat(client.read(rx, System.nanoTime() + WAIT, true)).isEqualTo(MessageEnd.OK);
            long afterRead = System.nanoTime();

            assertThat(echoed).isEqualTo(size);
            assertThat(rx.flip()).isEqualTo(pattern(size));
            assertThat(client.sendStartNanos()).isBetween(beforeWrite, afterWrite);
            assertThat(client.receiveEndNanos()).isBetween(beforeEcho, afterRead);
        }
    }

    @Test
    void aTcpRoundTripIsStampedAroundTheCallsAndEchoedWhole() throws Exception {
        roundTrip(tcpPair(), false, 64, 64);
    }

    @Test
    void aTcpMessageLongerThanTheEchoBufferIsAnsweredPieceByPiece() throws Exception {
        roundTrip(tcpPair(), false, 5000, 1000);
    }

    @Test
    void aConnectedUdpRoundTripIsStampedAndEchoed() throws Exception {
        roundTrip(udpPair(true), true, 1200, 1300);
    }

    @Test
    void anEchoToTheTargetOfAnUnconnectedUdpSocketReachesIt() throws Exception {
        roundTrip(udpPair(false), true, 64, 100);
    }

    @Test
    void theEchoEndsItsWaitOnAStopAndAtTheEndOfTheStream() throws Exception {
        NativeSocket[] pair = tcpPair();
        try (NativeMessageEnd client = new NativeMessageEnd(pair[0], false);
             NativeMessageEnd echo = new NativeMessageEnd(pair[1], false)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(64);
            echo.requestStop();
            // nothing arrives: the stop ends the wait after one receive timeout
            assertThat(echo.echo(buf, WAIT)).isEqualTo(MessageEnd.STOPPED);
            pair[0].shutdownOutput();
            try (NativeMessageEnd again = new NativeMessageEnd(pair[1], false)) {
                assertThat(again.echo(buf, WAIT)).isEqualTo(MessageEnd.EOF);
            }
        }
    }
}
