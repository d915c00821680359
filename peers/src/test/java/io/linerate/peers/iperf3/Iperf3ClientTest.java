package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Bound;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.ResultJson;
import io.linerate.testsupport.OpenFds;
import io.linerate.testsupport.Iperf3Server;
import io.linerate.testsupport.PeerTool;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * linerate against the real {@code iperf3 -s} (Debian package {@code iperf3}) on 127.0.0.1, one
 * one-off server per test. Skipped, with that reason, where the binary is not installed. Every
 * assertion is an identity between the two ends' counts that holds under any load; none expects
 * zero loss.
 */
class Iperf3ClientTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    @BeforeAll
    static void needIperf3() {
        PeerTool.require("iperf3", "iperf3");
    }

    private static TransferSpec.Builder spec(Protocol p, int payload) {
        return TransferSpec.builder().protocol(p).payloadBytes(payload).duration(Duration.ofSeconds(1))
                .ioTimeout(TIMEOUT).trafficClass(0);
    }

    @Test
    void tcpForwardServerCountsWhatLinerateSent() throws Exception {
        try (Iperf3Server srv = Iperf3Server.start(true)) {
            // a drain of 500 ms lets the server read what is in flight before TEST_END
            Iperf3Result r = Iperf3Client.run("127.0.0.1", srv.port, spec(Protocol.TCP, 128 * 1024).build(),
                    Iperf3Options.defaults().withTcpDrain(Duration.ofMillis(500)));
            assertThat(r.local().bytes()).isPositive();
            assertThat(r.remote()).extracting(Iperf3RemoteStream::id).containsExactly(1);
            if (r.serverReadAll().orElse(false)) {
                // the server closed cleanly, so it read every byte: its count is linerate's
                assertThat(r.remoteBytes()).isEqualTo(r.local().bytes());
                assertThat(r.notes()).isEmpty();
            } else {
                // it reset the connection: bytes were left unread, and the result says how many
                assertThat(r.remoteBytes()).isLessThan(r.local().bytes());
                assertThat(r.notes()).singleElement().asString()
                        .contains((r.local().bytes() - r.remoteBytes()) + " fewer");
            }
            String json = ResultJson.of(r).toJson();
            assertThat(json).contains("\"host\":\"local\"").contains("\"host\":\"remote\"")
                    .contains("\"name\":\"tcp4_mbps\"").contains("\"name\":\"tcp4_sent_mbps\"");
        }
    }

    @Test
    void tcpForwardByteCountIsSentExactly() throws Exception {
        try (Iperf3Server srv = Iperf3Server.start(true)) {
            // --bytes 10M = 10 x 1048576 = 10485760 bytes in 128 KiB writes: 80 writes
            TransferSpec s = spec(Protocol.TCP, 128 * 1024).bound(Bound.bytes(10L << 20)).build();
            Iperf3Result r = Iperf3Client.run("127.0.0.1", srv.port, s, Iperf3Options.defaults().withTcpDrain(Duration.ofMillis(500)));
            assertThat(r.local().bytes()).isEqualTo(10_485_760L);
            assertThat(r.local().datagrams()).isEqualTo(80);
            if (r.serverReadAll().orElse(false)) {
                assertThat(r.remoteBytes()).isEqualTo(10_485_760L);
            }
        }
    }

    @Test
    void tcpReverseLinerateReceivesWhatTheServerSent() throws Exception {
        try (Iperf3Server srv = Iperf3Server.start(true)) {
            Iperf3Result r = Iperf3Client.run("127.0.0.1", srv.port, spec(Protocol.TCP, 128 * 1024).build(),
                    Iperf3Options.defaults().withReverse(true));
            // linerate reads to the server's close after TEST_END: every byte the server wrote
            assertThat(r.local().bytes()).isPositive().isEqualTo(r.remoteBytes());
            assertThat(r.notes()).isEmpty();
            assertThat(r.marker()).isEqualTo("iperf3_tcp4_reverse");
        }
    }

    @Test
    void udpForwardServerCountsLinerateSequenceNumbers() throws Exception {
        udpForward(false);
    }

    @Test
    void udpForwardWith64BitCounters() throws Exception {
        udpForward(true);
    }

    private void udpForward(boolean counters64) throws Exception {
        try (Iperf3Server srv = Iperf3Server.start(true)) {
            TransferSpec s = spec(Protocol.UDP, 1400).rateBitsPerSecond(50_000_000).build();
            Iperf3Result r = Iperf3Client.run("127.0.0.1", srv.port, s, Iperf3Options.defaults().withUdpCounters64Bit(counters64));
            long sent = r.local().datagrams();
            assertThat(sent).isPositive();
            assertThat(r.local().bytes()).isEqualTo(sent * 1400);
            // the server counts what it received in bytes; every datagram is 1400 bytes
            assertThat(r.remoteBytes() % 1400).isZero();
            // iperf3's packets is the highest sequence number it saw; linerate numbers from 1, so it is at most sent
            assertThat(r.remotePackets()).isPositive().isLessThanOrEqualTo(sent);
            // no duplicates on loopback: received = highest - gaps (iperf3's errors), which holds only if the
            // sequence numbers linerate wrote are 1, 2, 3, ... in the width the server expects
            assertThat(r.remoteDatagramsReceived()).isEqualTo(r.remotePackets() - r.remoteErrors());
            // linerate's loss: sent = received by the server + lost
            assertThat(r.remoteDatagramsReceived() + r.lost()).isEqualTo(sent);
        }
    }

    @Test
    void udpReverseLinerateCountsTheServersDatagrams() throws Exception {
        try (Iperf3Server srv = Iperf3Server.start(true)) {
            TransferSpec s = spec(Protocol.UDP, 1400).rateBitsPerSecond(50_000_000).build();
            Iperf3Result r = Iperf3Client.run("127.0.0.1", srv.port, s, Iperf3Options.defaults().withReverse(true));
            long serverSent = r.remotePackets();
            assertThat(serverSent).isPositive();
            // the server's bytes are its datagrams x 1400
            assertThat(r.remoteBytes()).isEqualTo(serverSent * 1400);
            assertThat(r.local().duplicates()).isZero();
            assertThat(r.local().bytes()).isEqualTo(r.local().datagrams() * 1400);
            assertThat(r.local().distinct()).isPositive().isLessThanOrEqualTo(serverSent);
            // received + lost = the server's sent count
            assertThat(r.local().distinct() + r.lost()).isEqualTo(serverSent);
            assertThat(r.local().jitterNanos()).isPresent();
        }
    }

    @Test
    void tcpBidirEachDirectionCountsTheSameBytesAtBothEnds() throws Exception {
        tcpBidir(1);
    }

    @Test
    void tcpBidirWithParallelStreamsRunsThatManyEachWay() throws Exception {
        tcpBidir(2);
    }

    private void tcpBidir(int parallel) throws Exception {
        try (Iperf3Server srv = Iperf3Server.start(true)) {
            // a drain of 500 ms lets the server read what is in flight before TEST_END
            Iperf3BidirResult r = Iperf3Client.runBidir("127.0.0.1", srv.port, spec(Protocol.TCP, 128 * 1024).build(),
                    Iperf3Options.defaults().withParallel(parallel).withTcpDrain(Duration.ofMillis(500)));
            // iperf3 numbers streams 1, 3, 4, ... in the order they open, linerate's sending ones first:
            // -P 1: forward 1, reverse 3; -P 2: forward 1 and 3, reverse 4 and 5
            assertThat(r.forward().remote()).extracting(Iperf3RemoteStream::id)
                    .containsExactlyInAnyOrder(parallel == 1 ? new Integer[] {1} : new Integer[] {1, 3});
            assertThat(r.reverse().remote()).extracting(Iperf3RemoteStream::id)
                    .containsExactlyInAnyOrder(parallel == 1 ? new Integer[] {3} : new Integer[] {4, 5});
            Iperf3Result fwd = r.forward();
            assertThat(fwd.local().bytes()).isPositive();
            if (fwd.serverReadAll().orElse(false)) {
                // the server closed cleanly, so it read every byte linerate sent
                assertThat(fwd.remoteBytes()).isEqualTo(fwd.local().bytes());
            } else {
                assertThat(fwd.remoteBytes()).isLessThan(fwd.local().bytes());
                assertThat(fwd.notes()).singleElement().asString()
                        .contains((fwd.local().bytes() - fwd.remoteBytes()) + " fewer");
            }
            // linerate reads the server's streams to their close after TEST_END: every byte it wrote
            assertThat(r.reverse().local().bytes()).isPositive().isEqualTo(r.reverse().remoteBytes());
            assertThat(r.reverse().notes()).isEmpty();
            assertThat(r.reverse().serverReadAll()).isEmpty();
            // one metric name for both directions, told apart by the label, as linerate's own --bidir
            assertThat(fwd.marker()).isEqualTo("iperf3_tcp4");
            assertThat(r.reverse().marker()).isEqualTo("iperf3_tcp4");
            // the receiver's goodput at the receiver's host, the sender's rate at the sender's, each way
            assertThat(r.metrics()).filteredOn(m -> m.name().endsWith("_mbps"))
                    .extracting(m -> m.name() + "/" + m.labels().get("direction") + "/" + m.host())
                    .containsExactlyInAnyOrder("tcp4_sent_mbps/forward/local", "tcp4_mbps/forward/remote",
                            "tcp4_mbps/reverse/local", "tcp4_sent_mbps/reverse/remote");
            String json = ResultJson.of(r).toJson();
            assertThat(json).contains("\"direction\":\"forward\"").contains("\"direction\":\"reverse\"")
                    .contains("\"forward\":{").contains("\"reverse\":{").contains("\"bidir\":true");
        }
    }

    @Test
    void udpBidirEachDirectionSentIsReceivedPlusLost() throws Exception {
        try (Iperf3Server srv = Iperf3Server.start(true)) {
            // 50 Mbit/s each way, 1400-byte datagrams
            TransferSpec s = spec(Protocol.UDP, 1400).rateBitsPerSecond(50_000_000).build();
            Iperf3BidirResult r = Iperf3Client.runBidir("127.0.0.1", srv.port, s, Iperf3Options.defaults());
            Iperf3Result fwd = r.forward();
            long sent = fwd.local().datagrams();
            assertThat(sent).isPositive();
            assertThat(fwd.local().bytes()).isEqualTo(sent * 1400);
            assertThat(fwd.remoteBytes() % 1400).isZero();
            assertThat(fwd.remotePackets()).isPositive().isLessThanOrEqualTo(sent);
            // no duplicates on loopback: the server received its highest sequence number less its gaps
            assertThat(fwd.remoteDatagramsReceived()).isEqualTo(fwd.remotePackets() - fwd.remoteErrors());
            assertThat(fwd.remoteDatagramsReceived() + fwd.lost()).isEqualTo(sent);

            Iperf3Result rev = r.reverse();
            long serverSent = rev.remotePackets();
            assertThat(serverSent).isPositive();
            assertThat(rev.remoteBytes()).isEqualTo(serverSent * 1400);
            assertThat(rev.local().duplicates()).isZero();
            assertThat(rev.local().bytes()).isEqualTo(rev.local().datagrams() * 1400);
            assertThat(rev.local().distinct() + rev.lost()).isEqualTo(serverSent);
            assertThat(rev.local().jitterNanos()).isPresent();
            assertThat(r.metrics()).extracting(m -> m.name() + "/" + m.labels().get("direction") + "/" + m.host())
                    .contains("udp4_lost_pct/forward/remote", "udp4_jitter_ms/forward/remote",
                            "udp4_lost_pct/reverse/local", "udp4_jitter_ms/reverse/local");
        }
    }

    @Test
    void bidirWithReverseIsRefusedNamingTheValue() {
        assertThatThrownBy(() -> Iperf3Client.runBidir("127.0.0.1", 5201, spec(Protocol.TCP, 1024).build(),
                Iperf3Options.defaults().withReverse(true)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("reverse is set, but a bidirectional test runs both directions");
    }

    @Test
    void busyServerIsAClearErrorAndLeavesNothingOpen() throws Exception {
        byte[] cookie = Iperf3Wire.cookie(new java.util.Random(7));
        try (Iperf3Server srv = Iperf3Server.start(false);
             Socket first = new Socket("127.0.0.1", srv.port);
             Socket firstData = new Socket()) {
            // a first client, by hand, takes the server into TEST_RUNNING: cookie, PARAM_EXCHANGE (9),
            // parameters, CREATE_STREAMS (10), one data connection with the cookie, TEST_START (1), TEST_RUNNING (2)
            first.setSoTimeout(10_000);
            OutputStream out = first.getOutputStream();
            InputStream in = first.getInputStream();
            out.write(cookie);
            assertThat(in.read()).isEqualTo(9);
            out.write(Iperf3Wire.lengthPrefixed(
                    "{\"tcp\":true,\"omit\":0,\"time\":30,\"parallel\":1,\"len\":1024}".getBytes(StandardCharsets.UTF_8)).array());
            assertThat(in.read()).isEqualTo(10);
            firstData.connect(new InetSocketAddress("127.0.0.1", srv.port), 10_000);
            firstData.getOutputStream().write(cookie);
            assertThat(in.read()).isEqualTo(1);
            assertThat(in.read()).isEqualTo(2);
            // the JVM keeps a SecureRandom's device open once used, and a selector's first use loads for good
            Iperf3Wire.newCookie();
            java.nio.channels.Selector.open().close();
            java.util.Set<String> fdsBefore = OpenFds.snapshot();
            assertThatThrownBy(() -> Iperf3Client.run("127.0.0.1", srv.port, spec(Protocol.TCP, 1024).build(),
                    Iperf3Options.defaults()))
                    .isInstanceOf(Iperf3Exception.class)
                    .hasMessageContaining("is busy with another test (ACCESS_DENIED)");
            assertThat(OpenFds.snapshot()).isEqualTo(fdsBefore);
            assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("linerate-iperf3"));
        }
    }

    @Test
    void serverThatDiesMidTestIsAnErrorWithinTheTimeout() throws Exception {
        Iperf3Server srv = Iperf3Server.start(true);
        try {
            TransferSpec s = spec(Protocol.TCP, 128 * 1024).duration(Duration.ofSeconds(60)).build();
            CompletableFuture<Object> run = CompletableFuture.supplyAsync(() -> {
                try {
                    return Iperf3Client.run("127.0.0.1", srv.port, s, Iperf3Options.defaults());
                } catch (Iperf3Exception e) {
                    return e;
                }
            });
            srv.await("connected to"); // iperf3 prints a stream's line once it is up
            srv.kill();
            // the 60 s test ends with an error well within 10 s (I/O timeout 3 s)
            Object outcome = run.get(10, TimeUnit.SECONDS);
            assertThat(outcome).isInstanceOf(Iperf3Exception.class);
            assertThat(((Iperf3Exception) outcome).getMessage()).contains("partial: linerate had sent");
        } finally {
            srv.close();
        }
    }
}
