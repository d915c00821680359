package io.linerate.peers.iperf2;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Bound;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.AllowFrom;
import io.linerate.testsupport.IperfBinary;
import io.linerate.testsupport.PeerTool;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * linerate's iperf 2 client against the real `iperf -s` / `iperf -s -u` (Debian's iperf 2.1.8), and
 * the real `iperf -c` against linerate's server, on loopback. One `iperf -s` per test: iperf 2.1.8's
 * server is not reliable across many short tests in one process. zperf's and older iperf 2's
 * datagrams come from fixtures written from their public sources (see {@link Iperf2CodecTest}).
 */
class Iperf2InteropTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(5);

    @BeforeEach
    void needsIperf() {
        PeerTool.require("iperf", "iperf");
    }

    private static TransferSpec.Builder spec(Protocol p, int payload) {
        return TransferSpec.builder().protocol(p).payloadBytes(payload).ioTimeout(TIMEOUT).trafficClass(0);
    }

    private static Iperf2Agent agent() throws Exception {
        return Iperf2Agent.start(new Iperf2ServerConfig(InetAddress.getLoopbackAddress(), 0, AllowFrom.anyone(),
                AgentLimits.defaults(), TIMEOUT));
    }

    private static Iperf2ServedTest awaitTest(Iperf2Agent a) throws InterruptedException {
        long until = System.nanoTime() + 15_000_000_000L;
        while (a.completed().isEmpty()) {
            assertThat(System.nanoTime()).as("a test ends within 15 s").isLessThan(until);
            Thread.sleep(10);
        }
        return a.completed().get(0);
    }

    @Test
    void tcpClientBytesMatchIperfServerExactly() throws Exception {
        int port = IperfBinary.freePort();
        try (IperfBinary srv = IperfBinary.server(port, false)) {
            // 3,000,000 bytes in writes of 128 KiB: the last write is 3,000,000 - 22 x 131,072 = 116,416 bytes
            TransferSpec s = spec(Protocol.TCP, 128 * 1024).bound(Bound.bytes(3_000_000)).build();
            Iperf2Result r = Iperf2Client.run("127.0.0.1", port, s, Iperf2HeaderVariant.SEQ64);
            assertThat(r.local().bytes()).isEqualTo(3_000_000);
            assertThat(r.local().datagrams()).isEqualTo(23);
            assertThat(r.notes()).containsExactly("iperf 2's TCP server sends no report: the far end's figures (host "
                    + "remote) are absent, and linerate's are its own sends");
            // iperf -s -y C: the 8th field is the bytes it received
            // iperf -s -y C: the 8th field is the bytes it counted. iperf 2's server reads the client header's
            // flags word (4 bytes, 0 here: no header follows) and does not count it: 3,000,000 - 4
            String line = srv.await(",127.0.0.1," + port + ",");
            assertThat(Long.parseLong(line.split(",")[7])).isEqualTo(3_000_000 - 4);
        }
    }

    @Test
    void udpClientCountsAgreeWithIperfServerReport() throws Exception {
        int port = IperfBinary.freePort();
        try (IperfBinary srv = IperfBinary.server(port, true)) {
            TransferSpec s = spec(Protocol.UDP, 1000).duration(Duration.ofMillis(500)).rateBitsPerSecond(20_000_000).build();
            Iperf2Result r = Iperf2Client.run("127.0.0.1", port, s, Iperf2HeaderVariant.SEQ64);
            assertThat(r.remote()).as("the server's report").isPresent();
            Iperf2ServerReport rep = r.remote().get();
            // identities under any load: sent = received + lost by linerate's count
            assertThat(r.local().datagrams()).isEqualTo(r.received() + r.lost());
            assertThat(r.local().bytes()).isEqualTo(r.local().datagrams() * 1000);
            // the server's own counts: in all (the final id made positive) = datagrams linerate sent,
            // and in all less its lost = what it received by bytes
            assertThat(rep.datagrams()).isEqualTo(r.local().datagrams());
            assertThat(rep.received()).isEqualTo(r.received());
            // iperf -s -y C for UDP: bytes (8th field), errors (11th), datagrams in all (12th)
            String[] f = srv.await(",127.0.0.1," + port + ",").split(",");
            assertThat(Long.parseLong(f[7])).isEqualTo(rep.bytes());
            assertThat(Long.parseLong(f[10])).isEqualTo(rep.errors());
            assertThat(Long.parseLong(f[11])).isEqualTo(rep.datagrams());
            assertThat(r.metrics()).anyMatch(m -> m.name().equals("udp4_lost_pct") && m.host().equals("remote"));
        }
    }

    @Test
    void udpLossComesFromTheServersCountsWhenItTruncatesDatagrams() throws Exception {
        int port = IperfBinary.freePort();
        try (IperfBinary srv = IperfBinary.server(port, true)) {
            // 2000-byte datagrams; `iperf -s -u` reads 1470 bytes of each (its default -l)
            TransferSpec s = spec(Protocol.UDP, 2000).duration(Duration.ofMillis(500)).rateBitsPerSecond(10_000_000).build();
            Iperf2Result r = Iperf2Client.run("127.0.0.1", port, s, Iperf2HeaderVariant.SEQ64);
            Iperf2ServerReport rep = r.remote().orElseThrow();
            // iperf -s -y C: bytes (8th field), errors (11th), datagrams in all (12th), as the server printed them
            String[] f = srv.await(",127.0.0.1," + port + ",").split(",");
            long serverBytes = Long.parseLong(f[7]);
            long serverLost = Long.parseLong(f[10]);
            long serverAll = Long.parseLong(f[11]);
            assertThat(serverAll).isEqualTo(r.local().datagrams());
            // linerate's loss is the server's: sent = received + lost, received by the server's counts
            assertThat(r.lost()).isEqualTo(serverLost);
            assertThat(r.received()).isEqualTo(serverAll - serverLost);
            assertThat(r.local().datagrams()).isEqualTo(r.received() + r.lost());
            // the server counted 1470 bytes of each datagram it received, and the notes say so
            assertThat(serverBytes).isEqualTo(rep.bytes()).isEqualTo(r.received() * 1470);
            assertThat(r.notes()).singleElement().asString()
                    .contains("the server read only 1470 bytes of each 2000-byte datagram")
                    .contains("remote udp4_mbps from its bytes is low");
            double lostPct = 100.0 * serverLost / serverAll;
            assertThat(r.metrics()).filteredOn(m -> m.name().equals("udp4_lost_pct"))
                    .extracting(m -> m.value()).containsOnly(lostPct);
        }
    }

    @Test
    void realIperfUdpDualTestClientGetsItsForwardReport() throws Exception {
        try (Iperf2Agent a = agent();
             IperfBinary cli = IperfBinary.run(List.of("-c", "127.0.0.1", "-u", "-d", "-p", Integer.toString(a.address().getPort()),
                     "-t", "0.3", "-b", "10M", "-l", "1000"))) {
            // linerate runs the client's test to it and does not connect back: the client gets its report and
            // says the reverse connection did not come
            Iperf2ServedTest t = awaitTest(a);
            Iperf2ServerReport rep = t.report().orElseThrow();
            assertThat(rep.bytes()).isEqualTo(rep.received() * 1000);
            cli.waitFor();
            assertThat(cli.output()).noneMatch(l -> l.contains("did not receive ack"));
        }
    }

    @Test
    void realIperfTcpClientAgainstLinerateServer() throws Exception {
        try (Iperf2Agent a = agent();
             IperfBinary cli = IperfBinary.run(List.of("-c", "127.0.0.1", "-p", Integer.toString(a.address().getPort()),
                     "-n", "2000000", "-l", "65536", "-y", "C"))) {
            assertThat(cli.waitFor()).isZero();
            Iperf2ServedTest t = awaitTest(a);
            // -n 2000000: the client writes exactly 2,000,000 bytes, its header among them
            assertThat(t.bytes()).isEqualTo(2_000_000);
            assertThat(t.udp()).isFalse();
            assertThat(t.end()).isEqualTo("done");
            // the client's own CSV line: its 8th field is the bytes it sent
            String line = cli.output().stream().filter(l -> l.contains(",127.0.0.1,")).findFirst().orElseThrow();
            assertThat(Long.parseLong(line.split(",")[7])).isEqualTo(2_000_000);
        }
    }

    @Test
    void realIperfUdpClientGetsLineratesReport() throws Exception {
        try (Iperf2Agent a = agent();
             IperfBinary cli = IperfBinary.run(List.of("-c", "127.0.0.1", "-u", "-p", Integer.toString(a.address().getPort()),
                     "-t", "0.5", "-b", "20M", "-l", "1000", "-y", "C"))) {
            assertThat(cli.waitFor()).isZero();
            Iperf2ServedTest t = awaitTest(a);
            assertThat(t.udp()).isTrue();
            assertThat(t.header()).contains(Iperf2HeaderVariant.SEQ64);
            Iperf2ServerReport rep = t.report().orElseThrow();
            // every datagram is 1000 bytes: linerate's byte count and its datagram count agree
            assertThat(rep.bytes()).isEqualTo(rep.received() * 1000);
            assertThat(cli.output()).noneMatch(l -> l.contains("did not receive ack"));
            // iperf -c -y C prints its own line (the server report it got is not in the CSV): its bytes sent, the
            // final datagram included, are the datagrams linerate counts in all (received + lost) of 1000 bytes
            List<String> csv = cli.output().stream().filter(l -> l.contains(",127.0.0.1,")).toList();
            assertThat(csv).hasSize(1);
            assertThat(Long.parseLong(csv.get(0).split(",")[7])).isEqualTo(rep.datagrams() * 1000);
        }
    }

    /** Sends datagrams with the given ids in a fixture layout; returns the report datagram (bounded wait). */
    private static ByteBuffer sendFixture(Iperf2Agent a, int header, int len, long[] ids, boolean zperfFill) throws Exception {
        try (DatagramChannel ch = DatagramChannel.open()) {
            ch.connect(new InetSocketAddress("127.0.0.1", a.address().getPort()));
            ch.socket().setSoTimeout(5000);
            for (long id : ids) {
                ByteBuffer b = ByteBuffer.allocate(len);
                if (zperfFill) {
                    while (b.hasRemaining()) {
                        b.put((byte) 'z');
                    }
                }
                b.putInt(0, (int) id).putInt(4, 100).putInt(8, 0);
                // the client header: flags 0, one thread, port 5001, as zperf and old iperf 2 write it
                b.putInt(header, 0).putInt(header + 4, 1).putInt(header + 8, 5001);
                b.clear();
                ch.write(b);
            }
            ByteBuffer in = ByteBuffer.allocate(2048);
            java.nio.channels.Selector sel = java.nio.channels.Selector.open();
            try (sel) {
                ch.configureBlocking(false);
                ch.register(sel, java.nio.channels.SelectionKey.OP_READ);
                assertThat(sel.select(5000)).as("a report within 5 s").isPositive();
                ch.read(in);
            }
            return in.flip();
        }
    }

    @Test
    void zperfClientGetsReportAfterSixteenBytes() throws Exception {
        try (Iperf2Agent a = agent()) {
            // zperf (written from its source): ids 1..5, then the final -(5 + 1); 100-byte datagrams, 'z' fill
            ByteBuffer rep = sendFixture(a, 16, 100, new long[] {1, 2, 3, 4, 5, -6}, true);
            assertThat(rep.limit()).isEqualTo(56); // 16-byte header + 10 words
            assertThat(rep.getInt(16)).isEqualTo(0x80000000); // HEADER_VERSION1, which zperf checks
            assertThat(rep.getInt(24)).isEqualTo(600); // total_len2: 6 x 100 bytes
            assertThat(rep.getInt(36)).isZero(); // error_cnt
            assertThat(rep.getInt(44)).isEqualTo(6); // datagrams: zperf's received = 6 - 0
            assertThat(awaitTest(a).header()).contains(Iperf2HeaderVariant.SEQ32);
        }
    }

    @Test
    void olderIperf2ClientGetsReportAfterTwelveBytes() throws Exception {
        try (Iperf2Agent a = agent()) {
            // iperf 2.0.5 / early zperf (from their sources): 12-byte header; id 3 never sent, 4 before 2
            ByteBuffer rep = sendFixture(a, 12, 100, new long[] {1, 4, 2, 5, -6}, false);
            assertThat(rep.limit()).isEqualTo(52); // 12-byte header + 10 words
            assertThat(rep.getInt(12)).isEqualTo(0x80000000);
            assertThat(rep.getInt(20)).isEqualTo(500); // 5 datagrams of 100 bytes arrived
            assertThat(rep.getInt(32)).isEqualTo(1); // error_cnt: id 3 of 1..5 and the final (6 in all) is missing
            assertThat(rep.getInt(36)).isEqualTo(1); // outorder_cnt: 2 arrived after 4
            assertThat(rep.getInt(40)).isEqualTo(6); // datagrams in all
            assertThat(awaitTest(a).header()).contains(Iperf2HeaderVariant.LEGACY);
        }
    }
}
