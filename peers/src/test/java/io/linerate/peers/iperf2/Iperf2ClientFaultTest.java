package io.linerate.peers.iperf2;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Bound;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.testsupport.OpenFds;
import java.io.IOException;
import java.io.InputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * linerate's iperf 2 client against fake servers on 127.0.0.1 that are busy (take no data, send no
 * report) or die mid-test. Each run ends within the I/O timeout (1 s here; the bound waited for is
 * 10 s) with a clear {@link Iperf2Exception} naming the server and what linerate had sent so far, or,
 * where iperf 2's protocol leaves linerate's own counts whole, with a result that says what is
 * missing. This JVM's open file descriptors are the same before and after each run.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Iperf2ClientFaultTest {
    private static final Duration IO_TIMEOUT = Duration.ofSeconds(1);
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final Pattern PARTIAL = Pattern.compile("partial: linerate had sent (\\d+) bytes in (\\d+) (writes|datagrams)");

    @BeforeAll
    static void loadWhatTheRunsOpenForGood() throws Exception {
        // a selector's first use loads for good, as does the first exception's class; neither is the run's to close
        java.nio.channels.Selector.open().close();
        new Iperf2Exception("warm-up").getMessage();
    }

    /** A 60 s test, so that only the fault ends it. */
    private static TransferSpec.Builder spec(Protocol p, int payload) {
        return TransferSpec.builder().protocol(p).payloadBytes(payload).duration(Duration.ofSeconds(60))
                .ioTimeout(IO_TIMEOUT).trafficClass(0);
    }

    /** Runs the client on another thread and returns its result or its Iperf2Exception, waiting at most 10 s. */
    private static Object run(int port, TransferSpec spec) throws Exception {
        CompletableFuture<Object> f = CompletableFuture.supplyAsync(() -> {
            try {
                return Iperf2Client.run("127.0.0.1", port, spec, Iperf2HeaderVariant.SEQ64);
            } catch (Iperf2Exception e) {
                return e;
            }
        });
        return f.get(10, TimeUnit.SECONDS);
    }

    /** @return the bytes the message says linerate had sent, checking its message names the server */
    private static long partialBytes(Object outcome, int port, String unit) {
        assertThat(outcome).isInstanceOf(Iperf2Exception.class);
        String m = ((Iperf2Exception) outcome).getMessage();
        assertThat(m).startsWith("iperf 2 server 127.0.0.1:" + port + ": ");
        Matcher x = PARTIAL.matcher(m);
        assertThat(x.find()).as(m).isTrue();
        assertThat(x.group(3)).isEqualTo(unit);
        return Long.parseLong(x.group(1));
    }

    @Test
    void tcpServerThatTakesNoDataIsAnErrorWithWhatWasSent() throws Exception {
        Set<String> before = OpenFds.snapshot();
        try (ServerSocket srv = new ServerSocket()) {
            // a small receive buffer, inherited by the accepted socket: the client's writes stall soon
            srv.setReceiveBufferSize(4096);
            srv.bind(new InetSocketAddress(LOOPBACK, 0));
            CompletableFuture<Socket> held = CompletableFuture.supplyAsync(() -> {
                try {
                    return srv.accept(); // and never read: a server busy elsewhere
                } catch (IOException e) {
                    return null;
                }
            });
            Object outcome = run(srv.getLocalPort(), spec(Protocol.TCP, 128 * 1024).build());
            long sent = partialBytes(outcome, srv.getLocalPort(), "writes");
            assertThat(((Exception) outcome).getMessage()).contains("took no data for 1000 ms (the I/O timeout)");
            // what the kernel took before the buffers filled went out before the error
            assertThat(sent).isPositive();
            held.get(10, TimeUnit.SECONDS).close();
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void tcpServerThatDiesMidTestIsAnErrorWithWhatWasSent() throws Exception {
        Set<String> before = OpenFds.snapshot();
        try (ServerSocket srv = new ServerSocket(0, 1, LOOPBACK)) {
            CompletableFuture<Long> read = CompletableFuture.supplyAsync(() -> {
                try (Socket s = srv.accept()) {
                    InputStream in = s.getInputStream();
                    byte[] buf = new byte[65536];
                    long n = 0;
                    while (n < 1_000_000) {
                        int k = in.read(buf);
                        if (k < 0) {
                            break;
                        }
                        n += k;
                    }
                    s.setSoLinger(true, 0); // dies: the close resets the connection
                    return n;
                } catch (IOException e) {
                    return -1L;
                }
            });
            Object outcome = run(srv.getLocalPort(), spec(Protocol.TCP, 64 * 1024).build());
            long sent = partialBytes(outcome, srv.getLocalPort(), "writes");
            // the server read at least 1,000,000 bytes before it died, all of them linerate's
            assertThat(read.get(10, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(1_000_000L);
            assertThat(sent).isGreaterThanOrEqualTo(read.get());
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void tcpServerThatNeverClosesGivesTheResultAndSaysSo() throws Exception {
        Set<String> before = OpenFds.snapshot();
        CountDownLatch done = new CountDownLatch(1);
        try (ServerSocket srv = new ServerSocket(0, 1, LOOPBACK)) {
            CompletableFuture<Long> read = CompletableFuture.supplyAsync(() -> {
                try (Socket s = srv.accept()) {
                    long n = s.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
                    done.await(10, TimeUnit.SECONDS); // read to the end, but never closes until the test is over
                    return n;
                } catch (IOException | InterruptedException e) {
                    return -1L;
                }
            });
            // 300,000 bytes in writes of 65,536: 4 full writes and 300,000 - 4 x 65,536 = 37,856, 5 writes
            Object outcome = run(srv.getLocalPort(), spec(Protocol.TCP, 65_536).bound(Bound.bytes(300_000)).build());
            done.countDown();
            assertThat(outcome).isInstanceOf(Iperf2Result.class);
            Iperf2Result r = (Iperf2Result) outcome;
            assertThat(r.local().bytes()).isEqualTo(300_000);
            assertThat(r.local().datagrams()).isEqualTo(5);
            assertThat(read.get(10, TimeUnit.SECONDS)).isEqualTo(300_000L);
            assertThat(r.notes()).hasSize(2).anyMatch(n -> n.contains("did not close the connection within the I/O timeout"))
                    .anyMatch(n -> n.startsWith("iperf 2's TCP server sends no report"));
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void udpServerThatSendsNoReportGivesLineratesCountsAndSaysLossIsUnknown() throws Exception {
        Set<String> before = OpenFds.snapshot();
        try (DatagramSocket srv = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0))) {
            // 5,000 bytes of 1,000-byte datagrams: 4 data datagrams (the loop leaves room for the final
            // one), then the final datagram carrying payload too: 5 datagrams, 5,000 bytes
            TransferSpec s = spec(Protocol.UDP, 1000).bound(Bound.bytes(5000)).build();
            Object outcome = run(srv.getLocalPort(), s);
            assertThat(outcome).isInstanceOf(Iperf2Result.class);
            Iperf2Result r = (Iperf2Result) outcome;
            assertThat(r.local().bytes()).isEqualTo(5000);
            assertThat(r.local().datagrams()).isEqualTo(5);
            assertThat(r.remote()).isEmpty();
            assertThat(r.notes()).singleElement().asString().contains("sent no report");
            assertThat(r.invalidReasons()).containsExactly("the iperf 2 server sent no report: loss is unknown");
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void udpServerThatDiesMidTestIsAnErrorWithWhatWasSent() throws Exception {
        Set<String> before = OpenFds.snapshot();
        DatagramSocket srv = new DatagramSocket(new InetSocketAddress(LOOPBACK, 0));
        int port = srv.getLocalPort();
        try {
            CompletableFuture<Integer> got = CompletableFuture.supplyAsync(() -> {
                DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
                int n = 0;
                try {
                    while (n < 100) {
                        srv.receive(p);
                        n++;
                    }
                } catch (IOException e) {
                    return -1;
                } finally {
                    srv.close(); // dies: the kernel answers what follows with ICMP port unreachable
                }
                return n;
            });
            // 10 Mbit/s of 1000-byte datagrams: 1250 a second, so the server's 100 come within 0.1 s
            Object outcome = run(port, spec(Protocol.UDP, 1000).rateBitsPerSecond(10_000_000).build());
            assertThat(got.get(10, TimeUnit.SECONDS)).isEqualTo(100);
            long sent = partialBytes(outcome, port, "datagrams");
            assertThat(((Exception) outcome).getMessage()).contains("ICMP port unreachable");
            // the server took 100 datagrams of 1000 bytes before it died
            assertThat(sent).isGreaterThanOrEqualTo(100_000);
        } finally {
            srv.close();
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }
}
