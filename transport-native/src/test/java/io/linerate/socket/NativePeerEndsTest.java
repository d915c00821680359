package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TcpMss;
import io.linerate.core.TcpStats;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.core.spi.ends.StreamChannel;
import io.linerate.core.spi.ends.StreamListener;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.core.spi.engine.StreamEnd;
import io.linerate.testsupport.OpenFds;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The native transport's ends for peers, both in this JVM over loopback: a TCP stream between a
 * listening and a connecting end counts every byte at both, with the MSS each end read and the
 * sending end's TCP_INFO; waits are bounded and end with a message; nothing stays open. The latency
 * ends are {@link NativeLatencyEndsTest}'s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NativePeerEndsTest {

    private static PeerEnds ends() {
        return Transports.byName(NativeTransport.NAME).peerEnds().orElseThrow();
    }

    private static TransferSpec.Builder tcp(AddressFamily f) {
        return TransferSpec.builder().protocol(Protocol.TCP).family(f).payloadBytes(64 * 1024)
                .duration(Duration.ofMillis(300)).warmup(Duration.ZERO).interval(Duration.ofMillis(100))
                .ioTimeout(Duration.ofSeconds(5));
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void aStreamBetweenAListeningReceiverAndAConnectingSenderCountsEveryByte(AddressFamily f) throws Exception {
        TransferSpec spec = tcp(f).noDelay(true).build();
        InetAddress lo = f.loopbackAddress();
        Set<String> before = OpenFds.snapshot();
        try (StreamListener listener = ends().listenTcp(spec, lo, false);
             StreamChannel tx = ends().connectTcp(spec, new InetSocketAddress(lo, listener.port()), true);
             StreamChannel rx = listener.accept(lo)) {
            StreamEnd receiver = StreamEnd.receiver(spec, Clock.system(), rx.receiveLoop());
            CompletableFuture<EndCounters> received = CompletableFuture.supplyAsync(() -> {
                try {
                    return receiver.run(IntervalListener.NONE, () -> -1);
                } catch (TransferException e) {
                    throw new IllegalStateException(e);
                }
            });
            EndCounters sent = StreamEnd.sender(spec, Clock.system(), tx.sendLoop()).run(IntervalListener.NONE, () -> -1);
            EndCounters got = received.get(30, TimeUnit.SECONDS);

            // the sender shut its output down after its last byte: the receiver read to the end of the stream
            assertThat(sent.bytes()).isPositive();
            assertThat(got.bytes()).isEqualTo(sent.bytes());
            TcpMss.Read txMss = tx.options().tcpMss().flatMap(TcpMss::read).orElseThrow();
            TcpMss.Read rxMss = rx.options().tcpMss().flatMap(TcpMss::read).orElseThrow();
            assertThat(txMss.how()).isEqualTo("TCP_MAXSEG of this host's end");
            // loopback's MTU is 65536 (Linux): at most 65536 - IP header - 20 TCP header bytes of payload
            assertThat(txMss.senderBytes()).isBetween(1, 65536 - f.ipHeaderBytes() - 20);
            assertThat(rxMss.receiverBytes()).isBetween(1, 65536 - f.ipHeaderBytes() - 20);
            assertThat(tx.options().noDelayApplied()).isTrue();
            assertThat(rx.options().receiveBufferApplied()).isPositive();
            TcpStats stats = tx.tcpStats().orElseThrow();
            // tcpi_snd_mss and TCP_MAXSEG are the same figure of the kernel (tp->mss_cache)
            assertThat(stats.senderMss()).isEqualTo(txMss.senderBytes());
            assertThat(stats.receiverMss()).isEqualTo(-1L);
            assertThat(rx.tcpStats()).isEmpty();
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void aSendfileEndAndAMsgTruncEndCountEveryByteNameTheirCallsAndCloseThePayloadFile() throws Exception {
        TransferSpec spec = tcp(AddressFamily.IPV4).io(new io.linerate.core.StreamIo(0, false, true, true)).build();
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        Set<String> before = OpenFds.snapshot();
        long filesBefore = memfds();
        try (StreamListener listener = ends().listenTcp(spec, lo, false);
             StreamChannel tx = ends().connectTcp(spec, new InetSocketAddress(lo, listener.port()), true);
             StreamChannel rx = listener.accept(lo)) {
            assertThat(memfds()).as("the sending end's payload file").isEqualTo(filesBefore + 1);
            assertThat(tx.dataPathEnd()).as("before the loop ran").isEmpty();
            StreamEnd receiver = StreamEnd.receiver(spec, Clock.system(), rx.receiveLoop());
            CompletableFuture<EndCounters> received = CompletableFuture.supplyAsync(() -> {
                try {
                    return receiver.run(IntervalListener.NONE, () -> -1);
                } catch (TransferException e) {
                    throw new IllegalStateException(e);
                }
            });
            EndCounters sent = StreamEnd.sender(spec, Clock.system(), tx.sendLoop()).run(IntervalListener.NONE, () -> -1);
            EndCounters got = received.get(30, TimeUnit.SECONDS);

            // the sender shut its output down after its last byte: the receiver dropped all of them
            assertThat(sent.bytes()).isPositive();
            assertThat(got.bytes()).isEqualTo(sent.bytes());
            io.linerate.core.DataPath.End out = tx.dataPathEnd().orElseThrow();
            io.linerate.core.DataPath.End in = rx.dataPathEnd().orElseThrow();
            assertThat(out.call()).isEqualTo("sendfile(2)");
            assertThat(in.call()).isEqualTo("recv(2) with MSG_TRUNC");
            // each 64 KiB message took one sendfile(2) call at least
            assertThat(out.calls()).isGreaterThanOrEqualTo(sent.bytes() / (64 * 1024)).isEqualTo(out.segments());
            // a receive takes 256 KiB at most
            assertThat(in.calls()).isGreaterThanOrEqualTo(got.bytes() / (256 * 1024)).isEqualTo(in.segments());
        }
        assertThat(memfds()).isEqualTo(filesBefore);
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    /** @return this process's descriptors of a memfd named linerate-payload (/proc/self/fd: "/memfd:NAME (deleted)") */
    private static long memfds() throws IOException {
        long n = 0;
        for (String fd : java.util.Objects.requireNonNull(new java.io.File("/proc/self/fd").list())) {
            try {
                if (java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/fd", fd)).toString()
                        .startsWith("/memfd:" + PayloadFile.NAME)) {
                    n++;
                }
            } catch (java.nio.file.NoSuchFileException e) {
                // the listing's own descriptor, closed again
            }
        }
        return n;
    }

    @Test
    void anAcceptThatGetsNoConnectionEndsAtTheIoTimeoutAndClosesTheListener() throws Exception {
        TransferSpec spec = tcp(AddressFamily.IPV4).ioTimeout(Duration.ofMillis(200)).build();
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        Set<String> before = OpenFds.snapshot();
        StreamListener listener = ends().listenTcp(spec, lo, false);

        assertThatThrownBy(() -> listener.accept(lo)).isInstanceOf(IOException.class)
                .hasMessage("no TCP data connection from 127.0.0.1 within the I/O timeout of 200 ms");
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void closingAListenerEndsAnAcceptOnAnotherThread() throws Exception {
        // an I/O timeout far beyond the test's own: only the close can end this accept in time
        TransferSpec spec = tcp(AddressFamily.IPV4).ioTimeout(Duration.ofMinutes(10)).build();
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        Set<String> before = OpenFds.snapshot();
        StreamListener listener = ends().listenTcp(spec, lo, true);
        CompletableFuture<StreamChannel> accepting = CompletableFuture.supplyAsync(() -> {
            try {
                return listener.accept(lo);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        listener.close();

        assertThatThrownBy(() -> accepting.get(30, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .hasRootCauseMessage("the TCP data listener was closed while it waited for the peer's connection");
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void aConnectNobodyAnswersNamesTheErrnoAndLeavesNothingOpen() throws Exception {
        TransferSpec spec = tcp(AddressFamily.IPV4).build();
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        int closedPort;
        try (NativeSocket probe = NativeSocket.tcp(AddressFamily.IPV4)) {
            probe.bindAndListen(lo, 0, 1);
            closedPort = probe.localPort();
        }
        Set<String> before = OpenFds.snapshot();

        assertThatThrownBy(() -> ends().connectTcp(spec, new InetSocketAddress(lo, closedPort), true))
                .isInstanceOf(NativeSocketException.class).hasMessageContaining("ECONNREFUSED");
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    @Test
    void aUdpEndIsBoundWithItsOptionsAndLeavesNothingOpen() throws Exception {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).sendBufferBytes(128 * 1024).trafficClass(0x10)
                .build();
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        Set<String> before = OpenFds.snapshot();
        try (StreamChannel rx = ends().bindUdp(spec, lo, false);
             StreamChannel tx = ends().bindUdp(spec, lo, true)) {
            tx.connectUdp(new InetSocketAddress(lo, rx.localPort()));
            rx.connectUdp(new InetSocketAddress(lo, tx.localPort()));

            assertThat(tx.localPort()).isBetween(1, 65535).isNotEqualTo(rx.localPort());
            assertThat(tx.options().sendBufferApplied()).isEqualTo(2 * 128 * 1024); // socket(7): doubled
            assertThat(tx.options().trafficClassApplied()).isEqualTo(0x10);
            assertThat(tx.options().tcpMss()).isEmpty();
            assertThat(rx.options().receiveBufferApplied()).isPositive();
            assertThat(tx.tcpStats()).isEmpty();
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }
}
