package io.linerate.peers.iperf2;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.AllowFrom;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * linerate's iperf 2 UDP server against hand-made datagrams in current iperf 2's layout (16-byte
 * header, {@code HEADER_SEQNO64B} in the client header), each client a channel of its own: only a
 * test the server ran gets a report. The server handles datagrams one at a time in the order they
 * arrive on its port, and answers in that order, so a report that arrives after a datagram was sent
 * shows that datagram was handled, and what it did or did not answer before.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class Iperf2UdpServerTest {
    private static final int LEN = 100;
    /** How long a reply that should not come is waited for, after a later reply showed it would have been sent. */
    private static final long NO_REPLY_MILLIS = 300;

    private static Iperf2Agent agent(int maxSessions) throws Exception {
        AgentLimits d = AgentLimits.defaults();
        AgentLimits limits = new AgentLimits(maxSessions, d.maxDuration(), d.maxRateBitsPerSecond(), d.maxPayloadBytes());
        return Iperf2Agent.start(new Iperf2ServerConfig(InetAddress.getLoopbackAddress(), 0, AllowFrom.anyone(), limits,
                Duration.ofSeconds(5)));
    }

    /** A client: a non-blocking channel connected to the server, with a selector to wait on. */
    private static final class Client implements AutoCloseable {
        final DatagramChannel ch;
        final Selector sel;

        Client(Iperf2Agent a) throws Exception {
            ch = DatagramChannel.open();
            ch.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), a.address().getPort()));
            ch.configureBlocking(false);
            sel = Selector.open();
            ch.register(sel, SelectionKey.OP_READ);
        }

        /** Sends one datagram of {@link #LEN} bytes with id {@code id} (negative: the final one), flags as iperf 2.1.8 -u. */
        void send(long id) throws Exception {
            send(id, Iperf2HeaderVariant.HEADER_SEQNO64B);
        }

        void send(long id, int flags) throws Exception {
            sendAt(id, flags, 1_700_000_000_000_000L + Math.abs(id) * 1000);
        }

        /** Sends one datagram with send stamp {@code epochMicros}. */
        void sendAt(long id, int flags, long epochMicros) throws Exception {
            ByteBuffer b = ByteBuffer.allocate(LEN);
            Iperf2Datagram.writeHeader(b, Iperf2HeaderVariant.SEQ64, id, epochMicros);
            b.putInt(16, flags).putInt(20, 1);
            ch.write(b);
        }

        /** @return the next datagram within {@code millis}, or null when none came */
        ByteBuffer receive(long millis) throws Exception {
            long until = System.nanoTime() + millis * 1_000_000L;
            ByteBuffer in = ByteBuffer.allocate(2048);
            while (true) {
                if (ch.read(in) > 0) {
                    return in.flip();
                }
                long left = (until - System.nanoTime()) / 1_000_000L;
                if (left <= 0) {
                    return null;
                }
                sel.selectedKeys().clear();
                sel.select(left);
            }
        }

        Iperf2ServerReport report() throws Exception {
            ByteBuffer in = receive(5000);
            assertThat(in).as("a report within 5 s").isNotNull();
            return Iperf2ServerReport.parse(in, 16);
        }

        @Override
        public void close() throws Exception {
            sel.close();
            ch.close();
        }
    }

    @Test
    void finalDatagramWithoutATestGetsNoReport() throws Exception {
        try (Iperf2Agent a = agent(8); Client c = new Client(a)) {
            c.send(-93); // a final datagram out of nowhere: no test of 93 datagrams ran here
            // then a real test from the same address and port: ids 1, 2 and the final -3
            c.send(1);
            c.send(2);
            c.send(-3);
            // the first reply is this test's report: nothing answered the lone final before it
            Iperf2ServerReport r = c.report();
            assertThat(r.datagrams()).isEqualTo(3);
            assertThat(r.errors()).isZero();
            assertThat(r.bytes()).isEqualTo(3L * LEN);
            assertThat(c.receive(NO_REPLY_MILLIS)).as("no second reply").isNull();
            assertThat(a.completed()).singleElement().satisfies(t -> assertThat(t.bytes()).isEqualTo(3L * LEN));
            assertThat(a.refusals()).isZero();
        }
    }

    @Test
    void clientBeyondMaxSessionsGetsNoReportWhileTheFirstGetsItsOwn() throws Exception {
        try (Iperf2Agent a = agent(1); Client first = new Client(a); Client second = new Client(a); Client third = new Client(a)) {
            first.send(1);
            first.send(2);
            // the first test holds the only session: the second client is refused at its first datagram
            for (int id = 1; id <= 5; id++) {
                second.send(id);
            }
            first.send(-3);
            Iperf2ServerReport r = first.report();
            assertThat(r.datagrams()).isEqualTo(3);
            assertThat(r.errors()).isZero();
            assertThat(r.received()).isEqualTo(3);
            // the session is free again, but the second client stays refused: its final gets no report, nor do its re-sends
            second.send(-6);
            second.send(-6);
            // a third client's whole test after it: its report comes after anything the second's finals would have got
            third.send(1);
            third.send(-2);
            assertThat(third.report().datagrams()).isEqualTo(2);
            assertThat(second.receive(NO_REPLY_MILLIS)).as("the refused client's report").isNull();
            // refused and counted once, not for each of its 7 datagrams
            assertThat(a.refusals()).isEqualTo(1);
            assertThat(a.completed()).hasSize(2).allSatisfy(t -> assertThat(t.end()).isEqualTo("done"));
            assertThat(a.completed()).extracting(t -> t.client().getPort())
                    .containsExactly(((InetSocketAddress) first.ch.getLocalAddress()).getPort(),
                            ((InetSocketAddress) third.ch.getLocalAddress()).getPort());
            assertThat(a.activeSessions()).isZero();
        }
    }

    @Test
    void dualTestRequestIsServedAsAForwardTest() throws Exception {
        try (Iperf2Agent a = agent(8); Client c = new Client(a)) {
            // iperf 2.1.8 -c -u -d: HEADER_VERSION1 | HEADER_EXTEND | HEADER_SEQNO64B | length bits | RUN_NOW
            c.send(1, 0xc8010099);
            c.send(-2, 0xc8010099);
            Iperf2ServerReport r = c.report();
            assertThat(r.datagrams()).isEqualTo(2);
            assertThat(a.completed()).singleElement().satisfies(t -> assertThat(t.header()).contains(Iperf2HeaderVariant.SEQ64));
        }
    }

    /**
     * iperf 2.1.8 re-sends its final datagram with a magnitude one higher each time (-10, -11, -12,
     * -13 here) until a report reaches it: every report is the first final's, 10 datagrams of
     * which none lost, not 13 of which 3 lost. A duplicated data datagram after the final belongs
     * to the ended test: it starts no test of its own, and a later test from the same port is
     * served.
     */
    @Test
    void retriedFinalDatagramsLeaveTheReportUnchanged() throws Exception {
        try (Iperf2Agent a = agent(8); Client c = new Client(a)) {
            for (int id = 1; id <= 9; id++) {
                c.send(id);
            }
            for (int id = -10; id >= -13; id--) {
                c.send(id);
            }
            for (int i = 0; i < 4; i++) {
                Iperf2ServerReport r = c.report();
                assertThat(r.datagrams()).as("report %d: datagrams in all", i).isEqualTo(10);
                assertThat(r.errors()).as("report %d: lost", i).isZero();
                assertThat(r.received()).isEqualTo(10);
                assertThat(r.bytes()).isEqualTo(10L * LEN);
            }
            c.send(5); // a duplicate of a data datagram of the ended test, sent before its final
            c.send(-13); // its report shows the duplicate was handled before it
            assertThat(c.report().datagrams()).isEqualTo(10);
            assertThat(a.activeSessions()).as("the duplicate started no test").isZero();
            assertThat(a.completed()).singleElement().satisfies(t -> assertThat(t.report()).isPresent()
                    .hasValueSatisfying(r -> assertThat(r.datagrams()).isEqualTo(10)));
            // a new test from the same address and port, sent after the first one's final
            long later = 1_700_000_000_000_000L + 1_000_000;
            c.sendAt(1, Iperf2HeaderVariant.HEADER_SEQNO64B, later);
            c.sendAt(-2, Iperf2HeaderVariant.HEADER_SEQNO64B, later + 1000);
            assertThat(c.report().datagrams()).isEqualTo(2);
            assertThat(a.completed()).hasSize(2);
        }
    }
}
