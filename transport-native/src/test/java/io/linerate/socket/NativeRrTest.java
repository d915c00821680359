package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Idle;
import io.linerate.core.Measurement;
import io.linerate.core.Muxer;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.Transport;
import io.linerate.core.spi.ends.RrServerSide;
import io.linerate.core.spi.latency.RrTcpInfo;
import io.linerate.socket.internal.NativePeerEnds;
import io.linerate.testsupport.OpenFds;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Request/response on native sockets, the server and every flow in this JVM: TCP_RR and TCP_CRR in
 * closed loop, and an open loop held to its rate; the bytes moved counted by a server of the JDK's
 * own sockets; and what the native flows cannot run refused, naming it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativeRrTest {
    private Transport t;

    @BeforeEach
    void nativeLayer() {
        t = Transports.byName(NativeTransport.NAME);
        assumeTrue(t.unavailabilityCause().isEmpty(), () -> "the native transport cannot load here: "
                + t.unavailabilityCause().orElseThrow());
    }

    private static RrSpec.Builder shortRun() {
        return RrSpec.builder().warmup(Duration.ofMillis(100)).duration(Duration.ofMillis(400))
                .timeout(Duration.ofSeconds(5));
    }

    private RrResult run(RrSpec spec) throws Exception {
        assertThat(t.unsupportedReason(spec)).isEmpty();
        try (Measurement m = t.open(spec, Clock.system())) {
            return (RrResult) m.run();
        }
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void closedLoopTransactionsAreServedOneResponseEach(AddressFamily family) throws Exception {
        Set<String> before = OpenFds.snapshot();
        RrResult r = run(shortRun().family(family).flows(3).requestBytes(100).responseBytes(300).build());

        assertThat(r.completed()).isPositive();
        assertThat(r.report().transactions()).isPositive().isLessThanOrEqualTo(r.completed());
        // the server stopped after every flow had ended, each after reading its last response whole
        assertThat(r.served()).isEqualTo(r.completed());
        assertThat(r.accepts()).isEqualTo(3);
        assertThat(r.remote()).isFalse();
        assertThat(r.invalidReasons()).isEmpty();
        // the MSS is the one this host's socket gave (TCP_MAXSEG): loopback's MTU is 65536, so at most
        // 65536 - 40 (IPv4) or - 60 (IPv6) header bytes
        int headers = family == AddressFamily.IPV4 ? 40 : 60;
        String note = r.report().notes().stream().filter(n -> n.startsWith("tcp mss ")).findFirst().orElseThrow();
        int mss = Integer.parseInt(note.substring("tcp mss ".length(), note.indexOf(" B")));
        assertThat(mss).isBetween(1, 65536 - headers);
        assertThat(note).isEqualTo("tcp mss " + mss + " B (read: TCP_MAXSEG " + mss + " at this host's end)");
        // TCP_INFO of the flows' sockets (getsockopt) and of the server's ends (sock_diag), at the window's edges
        LatencyTcpInfo tcp = r.tcpInfo().orElseThrow();
        assertThat(tcp.client().stats()).as(tcp.client().unavailable()).hasValueSatisfying(t -> {
            assertThat(t.windowRetransmits()).isBetween(0L, t.totalRetransmits());
            assertThat(t.senderMss()).isBetween(1L, 65536L - headers);
            assertThat(t.cwndBytes()).isPositive();
        });
        assertThat(tcp.server().stats()).as(tcp.server().unavailable()).hasValueSatisfying(t ->
                assertThat(t.windowRetransmits()).isBetween(0L, t.totalRetransmits()));
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void connectPerTransactionAcceptsOneConnectionPerTransaction() throws Exception {
        Set<String> before = OpenFds.snapshot();
        RrResult r = run(shortRun().crr(true).flows(2).requestBytes(64).responseBytes(1000).build());

        assertThat(r.completed()).isPositive();
        assertThat(r.report().test()).isEqualTo("tcp_crr");
        assertThat(r.accepts()).isEqualTo(r.completed());
        assertThat(r.served()).isEqualTo(r.completed());
        // no connection lasts to be read: both ends say why
        assertThat(r.tcpInfo().orElseThrow().client().unavailable()).isEqualTo(RrTcpInfo.CRR);
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void anOpenLoopSendsNoMoreThanItsRateInTheWindow() throws Exception {
        long rate = 200;
        RrResult r = run(shortRun().rate(rate).flows(1).duration(Duration.ofMillis(500)).build());

        long window = r.report().windowNanos();
        // the scheduled window: the duration, exactly
        assertThat(window).isEqualTo(500_000_000L);
        // one request every 5 ms, those due in [open, close): at most rate x window + 1
        assertThat(r.report().transactions()).isPositive().isLessThanOrEqualTo(rate * window / 1_000_000_000L + 1);
        assertThat(r.report().notes()).anySatisfy(n -> assertThat(n).startsWith("open loop at 200 transactions/s"));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 70_000})
    void everyRequestAndResponseByteCrossesWhole(int responseBytes) throws Exception {
        int requestBytes = 1000;
        RrSpec spec = shortRun().flows(2).requestBytes(requestBytes).responseBytes(responseBytes).build();
        Set<String> before = OpenFds.snapshot();
        RrResult r;
        ByteCountingServer server = new ByteCountingServer(spec);
        try (server) {
            r = new NativePeerEnds(NativeTransport.NAME).runRr(spec, Clock.system(),
                    new RunFacts("test", "2026-01-01T00:00:00Z", "u", "c", "j", "o"), server);
        }
        // counted by the JDK's sockets at the far end: whole requests in, whole responses out
        assertThat(r.completed()).isPositive();
        assertThat(server.requestBytes.get()).isEqualTo(r.completed() * requestBytes);
        assertThat(server.responseBytes.get()).isEqualTo(r.completed() * responseBytes);
        assertThat(r.accepts()).isEqualTo(2);
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void whatTheNativeFlowsCannotRunIsRefusedNamingIt() throws Exception {
        assertThat(t.unsupportedReason(RrSpec.builder().muxer(Muxer.SPIN).build()))
                .hasValue("muxer spin is not on the native transport's request/response: its flows and server wait in "
                        + "poll(2), as the selector does; allowed: selector; the nio transport runs the others");
        RrSpec polling = RrSpec.builder().muxer(Muxer.BACKOFF).idle(Idle.parse("busy")).build();
        assertThat(t.unsupportedReason(polling)).hasValueSatisfying(r -> assertThat(r)
                .startsWith("muxer backoff (idle busy) is not on").contains("allowed: selector"));
        assertThatThrownBy(() -> t.open(RrSpec.builder().muxer(Muxer.SPIN).build(), Clock.system()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageStartingWith("muxer spin is not on");
        RrSpec spin = shortRun().muxer(Muxer.SPIN).endpoint(Endpoint.remote("198.18.0.2", 7001)).build();
        assertThatThrownBy(() -> new NativePeerEnds(NativeTransport.NAME).runRr(spin, Clock.system(), null, null))
                .isInstanceOf(TransferException.class).hasMessageStartingWith("muxer spin is not on")
                .satisfies(e -> assertThat(((TransferException) e).isUsageError()).isTrue());
    }

    /** A request/response server on the JDK's blocking sockets, one thread per connection, counting bytes. */
    private static final class ByteCountingServer implements RrServerSide, AutoCloseable {
        final AtomicLong requestBytes = new AtomicLong();
        final AtomicLong responseBytes = new AtomicLong();
        final AtomicLong accepts = new AtomicLong();
        private final RrSpec spec;
        private final ServerSocket listener;
        private final List<Thread> threads = new CopyOnWriteArrayList<>();
        private final List<Socket> sockets = new CopyOnWriteArrayList<>();
        private volatile Throwable failure;
        private final Thread acceptor;

        ByteCountingServer(RrSpec spec) throws IOException {
            this.spec = spec;
            this.listener = new ServerSocket(0, 50, spec.family().loopbackAddress());
            this.acceptor = new Thread(this::accept, "test-rr-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        private void accept() {
            try {
                while (true) {
                    Socket s = listener.accept();
                    sockets.add(s);
                    accepts.incrementAndGet();
                    s.setSoTimeout(10_000);
                    s.setTcpNoDelay(true);
                    Thread c = new Thread(() -> serve(s), "test-rr-connection");
                    c.setDaemon(true);
                    threads.add(c);
                    c.start();
                }
            } catch (IOException closed) {
                // the listener was closed: no more connections
            }
        }

        private void serve(Socket s) {
            byte[] response = new byte[spec.responseBytes()];
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                while (true) {
                    byte[] request = in.readNBytes(spec.requestBytes());
                    requestBytes.addAndGet(request.length);
                    if (request.length < spec.requestBytes()) {
                        return;
                    }
                    out.write(response);
                    responseBytes.addAndGet(response.length);
                }
            } catch (SocketTimeoutException e) {
                failure = e;
            } catch (IOException endOfRun) {
                // a reset as the flow closed
            }
        }

        @Override
        public SocketAddress address() {
            return new InetSocketAddress(spec.family().loopbackAddress(), listener.getLocalPort());
        }

        @Override
        public Throwable failure() {
            return failure;
        }

        @Override
        public long served() {
            return -1;
        }

        /** Every flow has closed its connection: each connection's thread ends at its end of stream. */
        @Override
        public long[] finish() throws IOException {
            listener.close();
            for (Thread c : threads) {
                try {
                    c.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
            }
            return new long[] {accepts.get(), responseBytes.get() / Math.max(1, spec.responseBytes())};
        }

        @Override
        public void close() throws IOException {
            listener.close();
            for (Socket s : sockets) {
                s.close();
            }
            try {
                acceptor.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
