package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.Transports;
import io.linerate.core.spi.ends.EchoEnd;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.core.spi.ends.RrServerEnd;
import io.linerate.testsupport.OpenFds;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The agent's latency ends on the native transport, each against a client on the JDK's sockets over
 * loopback: the echo end answers every byte of a TCP ping-pong and every datagram of a UDP one;
 * the request/response server answers every request of every flow and of every connection of a
 * TCP_CRR run, also when a request or a response spans many reads or writes; every descriptor is
 * released; what these ends cannot run is refused naming why.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeLatencyEndsTest {
    private static final int TRIPS = 100;
    private static final int SIZE = 64;

    private static PeerEnds ends() {
        return Transports.byName(NativeTransport.NAME).peerEnds().orElseThrow();
    }

    private static PingPongSpec pingPong(PingPongProtocol p, AddressFamily f) {
        return PingPongSpec.builder().protocol(p).family(f).sizes(List.of(SIZE)).noDelay(true)
                .timeout(Duration.ofSeconds(5)).build();
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void aTcpEchoEndAnswersEveryByteOfItsOneClient(AddressFamily f) throws Exception {
        InetAddress lo = f.loopbackAddress();
        Set<String> before = OpenFds.snapshot();
        EchoEnd echo = ends().echo(pingPong(PingPongProtocol.TCP, f), lo);
        try (echo; Socket client = new Socket()) {
            client.connect(new InetSocketAddress(lo, echo.localPort()), 5000);
            client.setSoTimeout(5000);
            echo.accept(lo, 5000);
            echo.start(SIZE);
            byte[] sent = new byte[SIZE];
            byte[] back = new byte[SIZE];
            for (int i = 0; i < TRIPS; i++) {
                Arrays.fill(sent, (byte) i);
                client.getOutputStream().write(sent);
                new DataInputStream(client.getInputStream()).readFully(back);
                assertThat(back).isEqualTo(sent);
            }
        }
        // closed: the counts are final; a TCP read may take less than a message, never more than was sent
        assertThat(echo.answeredBytes()).isEqualTo((long) TRIPS * SIZE);
        assertThat(echo.answered()).isBetween((long) TRIPS, (long) TRIPS * SIZE);
        assertThat(echo.failure()).isNull();
        assertThat(echo.cpus()).isEmpty();
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void aUdpEchoEndAnswersEveryDatagramOfTheClientItIsConnectedTo(AddressFamily f) throws Exception {
        InetAddress lo = f.loopbackAddress();
        Set<String> before = OpenFds.snapshot();
        EchoEnd echo = ends().echo(pingPong(PingPongProtocol.UDP, f), lo);
        try (echo; DatagramSocket client = new DatagramSocket(new InetSocketAddress(lo, 0))) {
            client.setSoTimeout(5000);
            echo.connectUdp(new InetSocketAddress(lo, client.getLocalPort()));
            echo.start(SIZE);
            InetSocketAddress to = new InetSocketAddress(lo, echo.localPort());
            DatagramPacket in = new DatagramPacket(new byte[2 * SIZE], 2 * SIZE);
            for (int i = 0; i < TRIPS; i++) {
                byte[] sent = new byte[SIZE - (i % 8)];
                Arrays.fill(sent, (byte) i);
                client.send(new DatagramPacket(sent, sent.length, to));
                in.setLength(2 * SIZE);
                client.receive(in);
                assertThat(Arrays.copyOf(in.getData(), in.getLength())).isEqualTo(sent);
            }
        }
        long bytes = 0;
        for (int i = 0; i < TRIPS; i++) {
            bytes += SIZE - (i % 8);
        }
        assertThat(echo.answered()).isEqualTo(TRIPS);
        assertThat(echo.answeredBytes()).isEqualTo(bytes);
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void aTcpEchoEndRefusesAConnectionFromAnotherAddressAndReleasesIt() throws Exception {
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        Set<String> before = OpenFds.snapshot();
        try (EchoEnd echo = ends().echo(pingPong(PingPongProtocol.TCP, AddressFamily.IPV4), lo);
             Socket client = new Socket()) {
            client.connect(new InetSocketAddress(lo, echo.localPort()), 5000);
            assertThatThrownBy(() -> echo.accept(InetAddress.getByName("127.0.0.2"), 5000))
                    .isInstanceOf(IOException.class)
                    .hasMessage("the ping-pong connection came from 127.0.0.1, not from the client at 127.0.0.2");
        }
        try (EchoEnd echo = ends().echo(pingPong(PingPongProtocol.TCP, AddressFamily.IPV4), lo)) {
            assertThatThrownBy(() -> echo.accept(lo, 50)).isInstanceOf(IOException.class).hasMessageContaining("50 ms");
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    /** One flow's transactions on one connection: each request whole, then its response read whole. */
    private static void transactions(InetSocketAddress server, RrSpec spec, int n) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(server, 5000);
            s.setSoTimeout(5000);
            s.setTcpNoDelay(true);
            OutputStream out = s.getOutputStream();
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] request = new byte[spec.requestBytes()];
            byte[] response = new byte[spec.responseBytes()];
            for (int i = 0; i < n; i++) {
                out.write(request);
                in.readFully(response);
            }
        }
    }

    @Test
    void theRrServerAnswersEveryRequestOfEveryFlowAndEveryConnection() throws Exception {
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        RrSpec spec = RrSpec.builder().requestBytes(100).responseBytes(300).noDelay(true).build();
        Set<String> before = OpenFds.snapshot();
        RrServerEnd server = ends().rrServer(spec, lo);
        try (server) {
            server.start();
            InetSocketAddress at = (InetSocketAddress) server.address();
            assertThat(at.getAddress()).isEqualTo(lo);
            // three flows at once, each on its own connection, then ten TCP_CRR connections of one transaction each
            List<Thread> flows = List.of(flow(at, spec, 50), flow(at, spec, 50), flow(at, spec, 50));
            for (Thread t : flows) {
                t.join(30_000);
                assertThat(t.isAlive()).isFalse();
            }
            for (int i = 0; i < 10; i++) {
                transactions(at, spec, 1);
            }
            server.stop();
            assertThat(server.accepts()).isEqualTo(13);
            assertThat(server.served()).isEqualTo(3 * 50 + 10);
            assertThat(server.failure()).isNull();
        }
        assertThat(flowFailures).isEmpty();
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    private final List<Throwable> flowFailures = new java.util.concurrent.CopyOnWriteArrayList<>();

    private Thread flow(InetSocketAddress at, RrSpec spec, int n) {
        Thread t = new Thread(() -> {
            try {
                transactions(at, spec, n);
            } catch (IOException | RuntimeException e) {
                flowFailures.add(e);
            }
        });
        t.start();
        return t;
    }

    @Test
    void requestsAndResponsesLargerThanASocketBufferAreAnsweredWhole() throws Exception {
        InetAddress lo = AddressFamily.IPV6.loopbackAddress();
        RrSpec spec = RrSpec.builder().family(AddressFamily.IPV6).requestBytes(3 << 20).responseBytes(5 << 20).build();
        Set<String> before = OpenFds.snapshot();
        try (RrServerEnd server = ends().rrServer(spec, lo)) {
            server.start();
            transactions((InetSocketAddress) server.address(), spec, 3);
            server.stop();
            assertThat(server.accepts()).isEqualTo(1);
            assertThat(server.served()).isEqualTo(3);
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @ParameterizedTest
    @EnumSource(value = PingPongProtocol.class, names = {"TCP", "UDP"})
    void anEchoEndBoundToLoReadsLoBackAndOneBoundToNoInterfaceLeavesNothingOpen(PingPongProtocol p) throws Exception {
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        Set<String> before = OpenFds.snapshot();
        try (EchoEnd echo = ends().echo(pingPong(p, AddressFamily.IPV4).toBuilder().bindToDevice("lo").build(), lo)) {
            assertThat(echo.localPort()).isBetween(1, 65535);
        }
        PingPongSpec none = pingPong(p, AddressFamily.IPV4).toBuilder().bindToDevice("nosuchif0").build();
        assertThatThrownBy(() -> ends().echo(none, lo)).isInstanceOf(NativeSocketException.class)
                .hasMessageContaining("SO_BINDTODEVICE, nosuchif0").hasMessageContaining("ENODEV");
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void closingAnEchoEndWhoseClientStaysStopsItsThreadAndReleasesItsSocket() throws Exception {
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        Set<String> before = OpenFds.snapshot();
        try (Socket client = new Socket()) {
            EchoEnd echo = ends().echo(pingPong(PingPongProtocol.TCP, AddressFamily.IPV4), lo);
            try (echo) {
                client.connect(new InetSocketAddress(lo, echo.localPort()), 5000);
                client.setSoTimeout(5000);
                echo.accept(lo, 5000);
                echo.start(SIZE);
                client.getOutputStream().write(new byte[SIZE]);
                new DataInputStream(client.getInputStream()).readFully(new byte[SIZE]);
            }
            // the echo end closed its socket: the client reads the end of the stream
            assertThat(client.getInputStream().read()).isEqualTo(-1);
            assertThat(echo.answeredBytes()).isEqualTo(SIZE);
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void closingTheRrServerMidRequestClosesEveryConnection() throws Exception {
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        RrSpec spec = RrSpec.builder().requestBytes(1000).responseBytes(10).build();
        Set<String> before = OpenFds.snapshot();
        try (Socket a = new Socket(); Socket b = new Socket()) {
            RrServerEnd server = ends().rrServer(spec, lo);
            try (server) {
                server.start();
                a.connect(server.address(), 5000);
                b.connect(server.address(), 5000);
                // half a request each: the server waits for the rest
                a.getOutputStream().write(new byte[500]);
                b.getOutputStream().write(new byte[500]);
                transactions((InetSocketAddress) server.address(), spec, 1);
            }
            a.setSoTimeout(5000);
            b.setSoTimeout(5000);
            assertThat(a.getInputStream().read()).isEqualTo(-1);
            assertThat(b.getInputStream().read()).isEqualTo(-1);
            assertThat(server.accepts()).isEqualTo(3);
            assertThat(server.served()).isEqualTo(1);
            assertThat(server.failure()).isNull();
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void whatTheseEndsCannotRunIsRefusedNamingWhy() throws Exception {
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        Set<String> before = OpenFds.snapshot();

        assertThatThrownBy(() -> ends().echo(pingPong(PingPongProtocol.UNIX_DATAGRAM, AddressFamily.IPV4), lo))
                .isInstanceOf(IOException.class)
                .hasMessage("a ping-pong echo end with a peer runs tcp or udp, not unix_datagram: a Unix-domain "
                        + "socket does not cross hosts");
        PingPongSpec spin = pingPong(PingPongProtocol.TCP, AddressFamily.IPV4).toBuilder().serverMuxer(Muxer.SPIN).build();
        assertThatThrownBy(() -> ends().echo(spin, lo)).isInstanceOf(IOException.class)
                .hasMessageStartingWith("server muxer spin is not on the native transport's echo end")
                .hasMessageContaining("allowed: blocking");
        RrSpec rrSpin = RrSpec.builder().muxer(Muxer.SPIN).build();
        assertThatThrownBy(() -> ends().rrServer(rrSpin, lo)).isInstanceOf(IOException.class)
                .hasMessageStartingWith("muxer spin is not on the native transport's request/response server")
                .hasMessageContaining("allowed: selector");
        assertThatThrownBy(() -> ends().pingPongClient(pingPong(PingPongProtocol.UNIX_DATAGRAM, AddressFamily.IPV4), lo))
                .isInstanceOf(IOException.class)
                .hasMessage("a ping-pong with a peer runs tcp or udp, not unix_datagram");
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }
}
