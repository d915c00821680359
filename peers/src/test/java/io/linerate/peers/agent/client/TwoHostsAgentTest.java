package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.netns.NetworkNamespace;
import io.linerate.testsupport.TwoHosts;
import io.linerate.testsupport.TwoHostsOptions;
import io.linerate.peers.agent.internal.wire.Control;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Streams through the agent across a real link: {@link TwoHosts} joins two network namespaces with
 * a veth pair, the agent runs in a JVM of its own inside host B (bound to 198.18.0.2, so with a
 * shared secret), and each client runs in a JVM of its own inside host A ({@link TwoHostsAgentPeer}).
 * Needs Linux and root; skipped with the reason otherwise.
 *
 * <p>Every assertion is an identity that holds under any load: the two ends' counts agree with each
 * other and with the veth interfaces' own counters: streams forward, reverse, both at once
 * ({@code --bidir}) and several in one session ({@code --parallel}); ping-pong (the agent echoed the
 * bytes of every round trip); request/response (the agent served every completed transaction). The one bound on a rate is the shaped link's:
 * goodput never exceeds what tbf lets through.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TwoHostsAgentTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(120);

    @TempDir
    static Path dir;
    private static Path secret;
    private static TwoHosts hosts;
    /** Control ports of the two agents in host B: one bound to its IPv4 address, one to its IPv6 address. */
    private static int port4;
    private static int port6;

    @BeforeAll
    static void hostsAndAgent() throws Exception {
        TwoHostsOptions options = TwoHostsOptions.builder().build(); // MTU 1500, no shaping
        Optional<String> why = TwoHosts.unavailableReason(options);
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
        secret = Files.writeString(dir.resolve("secret"), "two hosts share this\n");
        hosts = TwoHosts.create(options);
        port4 = TwoHostsAgentStart.startAgent(hosts, TwoHosts.IPV4_B, secret);
        port6 = TwoHostsAgentStart.startAgent(hosts, TwoHosts.IPV6_B, secret);
    }

    @AfterAll
    static void removeHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }

    /**
     * Runs one stream from host A against the agent in host B.
     *
     * @return the client's JSON line (see {@link TwoHostsAgentPeer})
     */
    private static JsonNode stream(TwoHosts h, String protocol, String direction, String family,
                                   int payload, long rate, long durationMs, int rcvbuf) throws Exception {
        String peer = family.equals("6") ? TwoHosts.IPV6_B : TwoHosts.IPV4_B;
        int agentPort = h == hosts ? (family.equals("6") ? port6 : port4) : shapedPort;
        NetworkNamespace.Result r = h.exec(h.a(), TwoHosts.javaCommand(TwoHostsAgentPeer.class.getName(), List.of(
                "stream", peer, Integer.toString(agentPort), secret.toString(), protocol, direction, family,
                Integer.toString(payload), Long.toString(rate), Long.toString(durationMs), Integer.toString(rcvbuf))), T);
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        List<String> lines = r.stdout().strip().lines().toList();
        return JSON.readTree(lines.get(lines.size() - 1));
    }

    /** A veth end's own counters, read inside its host from /sys/class/net/IF/statistics. */
    private record LinkCounters(long txPackets, long txDropped, long rxPackets, long rxBytes) {
        static LinkCounters read(TwoHosts h, TwoHosts.Host host) throws IOException {
            String base = "/sys/class/net/" + host.interfaceName() + "/statistics/";
            NetworkNamespace.Result r = h.exec(host, List.of("cat", base + "tx_packets", base + "tx_dropped",
                    base + "rx_packets", base + "rx_bytes"), T);
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            long[] v = r.stdout().lines().mapToLong(l -> Long.parseLong(l.strip())).toArray();
            assertThat(v).hasSize(4);
            return new LinkCounters(v[0], v[1], v[2], v[3]);
        }

        LinkCounters since(LinkCounters before) {
            return new LinkCounters(txPackets - before.txPackets, txDropped - before.txDropped,
                    rxPackets - before.rxPackets, rxBytes - before.rxBytes);
        }
    }

    @ParameterizedTest(name = "TCP {0} over IPv{1}")
    @CsvSource({"forward,4", "reverse,4", "forward,6", "reverse,6"})
    void tcpTheReceiverCountsEveryByteTheSenderSentAndTheLinkCarriedThem(String direction, String family)
            throws Exception {
        boolean forward = direction.equals("forward");
        TwoHosts.Host receivingHost = forward ? hosts.b() : hosts.a();
        LinkCounters rxBefore = LinkCounters.read(hosts, receivingHost);

        JsonNode r = stream(hosts, "tcp", direction, family, 64 * 1024, 0, 1000, 0);

        LinkCounters rx = LinkCounters.read(hosts, receivingHost).since(rxBefore);
        JsonNode sender = forward ? r.get("local") : r.get("remote");
        JsonNode receiver = forward ? r.get("remote") : r.get("local");
        assertThat(sender.get("sender").asBoolean()).isTrue();
        assertThat(receiver.get("sender").asBoolean()).isFalse();
        assertThat(sender.get("bytes").asLong()).isPositive();
        // TCP delivers every byte written before the sender shut its output down, on another host too
        assertThat(receiver.get("bytes").asLong()).isEqualTo(sender.get("bytes").asLong());
        assertThat(r.get("invalid")).isEmpty();
        // every payload byte the receiver read crossed the veth into its host at least once, inside a
        // frame that counts headers too: the receiving end's rx_bytes grew by at least that much
        assertThat(rx.rxBytes()).as("%s rx_bytes", receivingHost.interfaceName())
                .isGreaterThanOrEqualTo(receiver.get("bytes").asLong());
    }

    @ParameterizedTest(name = "UDP {0} over IPv{1}")
    @CsvSource({"forward,4", "reverse,4", "forward,6", "reverse,6"})
    void udpSentIsReceivedPlusLostAndTheVethCountedAtLeastAsMany(String direction, String family) throws Exception {
        boolean forward = direction.equals("forward");
        TwoHosts.Host sendingHost = forward ? hosts.a() : hosts.b();
        TwoHosts.Host receivingHost = forward ? hosts.b() : hosts.a();
        LinkCounters txBefore = LinkCounters.read(hosts, sendingHost);
        LinkCounters rxBefore = LinkCounters.read(hosts, receivingHost);

        // 100 Mbit/s of 1400-byte datagrams (1400 + 8 + 40 = 1448 bytes over IPv6: under the 1500 MTU)
        JsonNode r = stream(hosts, "udp", direction, family, 1400, 100_000_000L, 1000, 0);

        LinkCounters tx = LinkCounters.read(hosts, sendingHost).since(txBefore);
        LinkCounters rx = LinkCounters.read(hosts, receivingHost).since(rxBefore);
        JsonNode sender = forward ? r.get("local") : r.get("remote");
        JsonNode receiver = forward ? r.get("remote") : r.get("local");
        JsonNode udp = r.get("udp");
        assertThat(sender.get("sender").asBoolean()).isTrue();
        assertThat(udp.get("sent").asLong()).isEqualTo(sender.get("window_messages").asLong()).isPositive();
        assertThat(udp.get("received").asLong()).isEqualTo(receiver.get("window_messages").asLong());
        assertThat(udp.get("sent").asLong()).isEqualTo(udp.get("received").asLong() + udp.get("lost").asLong());
        assertThat(receiver.get("foreign").asLong()).isZero();
        // the receiver counts distinct datagrams: never more than the sender sent
        assertThat(receiver.get("messages").asLong()).isLessThanOrEqualTo(sender.get("messages").asLong());
        // each datagram the sender's socket took left its veth end, counted in tx_packets, or was dropped
        // there when the peer's backlog was full, counted in tx_dropped (veth_xmit); the packets also
        // hold the control connection's segments, so the sum is at least the datagrams sent
        assertThat(tx.txPackets() + tx.txDropped()).as("%s tx_packets + tx_dropped", sendingHost.interfaceName())
                .isGreaterThanOrEqualTo(sender.get("messages").asLong());
        // each datagram the receiver got came in through its veth end
        assertThat(rx.rxPackets()).as("%s rx_packets", receivingHost.interfaceName())
                .isGreaterThanOrEqualTo(receiver.get("messages").asLong());
    }

    /** Runs a ping-pong or rr client in host A against the IPv4 agent in host B; returns its JSON line. */
    private static JsonNode latency(String mode, String arg, String... transport) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of(mode, TwoHosts.IPV4_B, Integer.toString(port4),
                secret.toString(), arg));
        args.addAll(List.of(transport));
        NetworkNamespace.Result r = hosts.exec(hosts.a(), TwoHosts.javaCommand(TwoHostsAgentPeer.class.getName(), args), T);
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        List<String> lines = r.stdout().strip().lines().toList();
        return JSON.readTree(lines.get(lines.size() - 1));
    }

    /** The two ends of one TCP stream agree: the receiver counted every byte the sender sent. */
    private static void tcpEndsAgree(JsonNode r) {
        JsonNode sender = r.get("local").get("sender").asBoolean() ? r.get("local") : r.get("remote");
        JsonNode receiver = sender == r.get("local") ? r.get("remote") : r.get("local");
        assertThat(receiver.get("sender").asBoolean()).isFalse();
        assertThat(sender.get("bytes").asLong()).isPositive();
        assertThat(receiver.get("bytes").asLong()).isEqualTo(sender.get("bytes").asLong());
        assertThat(r.get("invalid")).isEmpty();
    }

    /** The two ends of one UDP stream agree: the sender's window datagrams are those received plus those lost. */
    private static void udpEndsAgree(JsonNode r) {
        JsonNode sender = r.get("local").get("sender").asBoolean() ? r.get("local") : r.get("remote");
        JsonNode receiver = sender == r.get("local") ? r.get("remote") : r.get("local");
        JsonNode udp = r.get("udp");
        assertThat(udp.get("sent").asLong()).isEqualTo(sender.get("window_messages").asLong()).isPositive();
        assertThat(udp.get("received").asLong()).isEqualTo(receiver.get("window_messages").asLong());
        assertThat(udp.get("sent").asLong()).isEqualTo(udp.get("received").asLong() + udp.get("lost").asLong());
        assertThat(receiver.get("foreign").asLong()).isZero();
    }

    @Test
    void tcpBidirEachDirectionsReceiverCountsEveryByteItsSenderSent() throws Exception {
        JsonNode r = stream(hosts, "tcp", "bidir", "4", 64 * 1024, 0, 1000, 0);

        // forward: this host (A) sends; reverse: the agent (B) sends
        assertThat(r.get("forward").get("local").get("sender").asBoolean()).isTrue();
        assertThat(r.get("reverse").get("remote").get("sender").asBoolean()).isTrue();
        tcpEndsAgree(r.get("forward"));
        tcpEndsAgree(r.get("reverse"));
    }

    @Test
    void udpBidirEachDirectionsSentIsReceivedPlusLost() throws Exception {
        // 50 Mbit/s of 1400-byte datagrams each way
        JsonNode r = stream(hosts, "udp", "bidir", "4", 1400, 50_000_000L, 1000, 0);

        assertThat(r.get("forward").get("local").get("sender").asBoolean()).isTrue();
        assertThat(r.get("reverse").get("remote").get("sender").asBoolean()).isTrue();
        udpEndsAgree(r.get("forward"));
        udpEndsAgree(r.get("reverse"));
    }

    @Test
    void tcpParallelEveryStreamsEndsAgreeAndTheSumIsTheirs() throws Exception {
        JsonNode r = stream(hosts, "tcp", "forward-3", "4", 64 * 1024, 0, 1000, 0);

        assertThat(r.get("streams")).hasSize(3);
        long sum = 0;
        for (JsonNode s : r.get("streams")) {
            assertThat(s.get("local").get("sender").asBoolean()).isTrue();
            tcpEndsAgree(s);
            sum += s.get("local").get("bytes").asLong();
        }
        // both hosts' sums are the streams' bytes added up; TCP: equal at both ends
        assertThat(r.get("sum").get("local_bytes").asLong()).isEqualTo(sum);
        assertThat(r.get("sum").get("remote_bytes").asLong()).isEqualTo(sum);
        assertThat(r.get("invalid")).isEmpty();
    }

    @Test
    void udpParallelReverseEveryStreamsSentIsReceivedPlusLostAndSoIsTheSum() throws Exception {
        // 90 Mbit/s for the session, 30 Mbit/s a stream, sent by the agent
        JsonNode r = stream(hosts, "udp", "reverse-3", "4", 1400, 90_000_000L, 1000, 0);

        assertThat(r.get("streams")).hasSize(3);
        long sent = 0;
        long received = 0;
        long lost = 0;
        for (JsonNode s : r.get("streams")) {
            assertThat(s.get("remote").get("sender").asBoolean()).isTrue();
            udpEndsAgree(s);
            sent += s.get("udp").get("sent").asLong();
            received += s.get("udp").get("received").asLong();
            lost += s.get("udp").get("lost").asLong();
        }
        JsonNode sum = r.get("sum").get("udp");
        assertThat(sum.get("sent").asLong()).isEqualTo(sent).isEqualTo(received + lost);
        assertThat(sum.get("received").asLong()).isEqualTo(received);
        assertThat(sum.get("lost").asLong()).isEqualTo(lost);
    }

    @ParameterizedTest(name = "{0} ping-pong")
    @CsvSource({"tcp", "udp"})
    void pingPongTheAgentEchoedEveryRoundTripThisHostCounted(String protocol) throws Exception {
        JsonNode r = latency("pingpong", protocol);

        long trips = r.get("round_trips").asLong();
        assertThat(trips).isPositive();
        // each round trip carries one message, echoed whole: the agent echoed the bytes of every round trip
        // (32 B per trip of the first size, 64 B of the second, summed by the client)
        assertThat(r.get("agent_echoed_bytes").asLong()).isEqualTo(r.get("bytes").asLong());
        // one message in flight at a time, of 32 or 64 B: one datagram, or one TCP segment that arrives
        // in one piece across the veth, so the agent answered one read per round trip
        assertThat(r.get("agent_echoes").asLong()).isEqualTo(trips);
        assertThat(r.get("invalid")).isEmpty();
        if (protocol.equals("tcp")) {
            // read from host A's socket (tcp_info through sock_diag, the native layer being on the class
            // path), across the 1500-byte veth: 1500 - 20 IPv4 - 20 TCP - 12 timestamps
            int mss = 1500 - 20 - 20 - (timestamps() ? 12 : 0);
            assertThat(r.get("tcp_mss").asInt()).isEqualTo(mss);
            assertThat(r.get("tcp_mss_source").asText())
                    .isEqualTo("read: tcpi_snd_mss " + mss + " at this host's end");
            // each end's TCP_INFO: host A's read here, host B's read by the agent and sent back
            bothEndsTcpInfo(r.get("detail"), mss);
        } else {
            assertThat(r.get("detail").has("tcp_info")).isFalse();
            assertThat(r.get("detail").has("tcp_info_unavailable")).isFalse();
        }
    }

    /** Both ends' figures are there, plausible, and send with the path's MSS. */
    private static void bothEndsTcpInfo(JsonNode detail, int mss) {
        assertThat(detail.has("tcp_info_unavailable")).as(detail.toString()).isFalse();
        for (String end : List.of("client", "server")) {
            JsonNode t = detail.get("tcp_info").get(end);
            assertThat(t.get("tcpi_snd_mss").asInt()).as(end).isEqualTo(mss);
            assertThat(t.get("tcpi_rtt").asLong()).as(end).isPositive();
            assertThat(t.get("retransmits_window").asLong()).as(end).isBetween(0L, t.get("tcpi_total_retrans").asLong());
        }
    }

    /** @return whether host A has TCP timestamps on (a new namespace does) */
    private static boolean timestamps() throws Exception {
        NetworkNamespace.Result ts = hosts.exec(hosts.a(), List.of("cat", "/proc/sys/net/ipv4/tcp_timestamps"), T);
        assertThat(ts.exitCode()).as(ts.stderr()).isZero();
        return Integer.parseInt(ts.stdout().strip()) != 0;
    }

    @Test
    void rrTheAgentServedEveryCompletedTransactionAndAtMostOneMorePerFlow() throws Exception {
        JsonNode r = latency("rr", "2");

        long completed = r.get("completed").asLong();
        long served = r.get("served").asLong();
        assertThat(completed).isPositive();
        // a transaction completes when its response, which the agent wrote first, has arrived; each flow
        // has at most one request outstanding when it stops, answered by the agent but not read: so
        // completed <= served <= completed + 2 flows
        assertThat(served).isBetween(completed, completed + 2);
        // one connection per flow
        assertThat(r.get("accepts").asLong()).isEqualTo(2);
        assertThat(r.get("invalid")).isEmpty();
        // the MSS is the path's, across the 1500-byte veth, not host A's loopback's (MTU 65536), read from
        // host A's first connection (tcp_info through sock_diag): 1500 - 20 IPv4 - 20 TCP - 12 timestamps
        int mss = 1500 - 20 - 20 - (timestamps() ? 12 : 0);
        assertThat(r.get("notes")).extracting(JsonNode::asText).filteredOn(n -> n.startsWith("tcp mss "))
                .containsExactly("tcp mss " + mss + " B (read: tcpi_snd_mss " + mss + " at this host's end)");
        bothEndsTcpInfo(r.get("detail"), mss);
    }

    @ParameterizedTest(name = "{0} ping-pong")
    @CsvSource({"tcp", "udp"})
    void aNativePingPongEndReadsThePathsMssFromItsSocket(String protocol) throws Exception {
        JsonNode r = latency("pingpong", protocol, "native");

        long trips = r.get("round_trips").asLong();
        assertThat(trips).isPositive();
        assertThat(r.get("agent_echoed_bytes").asLong()).isEqualTo(r.get("bytes").asLong());
        assertThat(r.get("agent_echoes").asLong()).isEqualTo(trips);
        assertThat(r.get("invalid")).isEmpty();
        if (protocol.equals("tcp")) {
            // TCP_MAXSEG of host A's native socket, across the 1500-byte veth: 1500 - 20 IPv4 - 20 TCP - 12 timestamps
            int mss = 1500 - 20 - 20 - (timestamps() ? 12 : 0);
            assertThat(r.get("tcp_mss").asInt()).isEqualTo(mss);
            assertThat(r.get("tcp_mss_source").asText()).isEqualTo("read: TCP_MAXSEG " + mss + " at this host's end");
        }
    }

    @Test
    void nativeRrFlowsReadThePathsMssFromTheirSocket() throws Exception {
        JsonNode r = latency("rr", "2", "native");

        long completed = r.get("completed").asLong();
        assertThat(completed).isPositive();
        assertThat(r.get("served").asLong()).isBetween(completed, completed + 2);
        assertThat(r.get("accepts").asLong()).isEqualTo(2);
        assertThat(r.get("invalid")).isEmpty();
        int mss = 1500 - 20 - 20 - (timestamps() ? 12 : 0);
        assertThat(r.get("notes")).extracting(JsonNode::asText).filteredOn(n -> n.startsWith("tcp mss "))
                .containsExactly("tcp mss " + mss + " B (read: TCP_MAXSEG " + mss + " at this host's end)");
    }

    /** tbf's rate on the shaped link: 200 Mbit/s. */
    private static final long TBF_RATE = 200_000_000L;
    /** tbf's bucket, bytes. */
    private static final int TBF_BURST = 64_000;
    /** tbf's queue, bytes. */
    private static final int TBF_LIMIT = 256_000;
    /** SO_RCVBUF asked of the receiver, bytes; the kernel doubles it (socket(7)). */
    private static final int RCVBUF = 131_072;
    /** Control port of the agent on the shaped link's host B, while one runs. */
    private static int shapedPort;

    @ParameterizedTest(name = "TCP {0}")
    @CsvSource({"forward", "reverse"})
    void tcpGoodputOverA200MbitTbfLinkNeverExceedsWhatTheLinkCarries(String direction) throws Exception {
        TwoHostsOptions options = TwoHostsOptions.builder().mtu(1500).tbf(TBF_RATE, TBF_BURST, TBF_LIMIT).build();
        Optional<String> why = TwoHosts.unavailableReason(options);
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
        try (TwoHosts shaped = TwoHosts.create(options)) {
            for (TwoHosts.Host h : List.of(shaped.a(), shaped.b())) {
                // the bound below counts the 12-byte timestamp option in every segment: both hosts use it
                assertThat(shaped.exec(h, List.of("cat", "/proc/sys/net/ipv4/tcp_timestamps"), T).stdout().strip())
                        .isEqualTo("1");
            }
            shapedPort = TwoHostsAgentStart.startAgent(shaped, TwoHosts.IPV4_B, secret);

            JsonNode r = stream(shaped, "tcp", direction, "4", 64 * 1024, 0, 3000, RCVBUF);

            JsonNode receiver = direction.equals("forward") ? r.get("remote") : r.get("local");
            assertThat(r.get("invalid")).isEmpty();
            // tbf counts each frame as the veth carries it: 14 Ethernet + 20 IPv4 + 20 TCP + 12 timestamps
            // + payload. At MTU 1500 the MSS is 1500 - 40 - 12 = 1448, so each full segment is 1448 + 66 =
            // 1514 bytes on the link, and goodput is at most 200e6 * 1448 / 1514 = 191 281 373.8 bit/s
            int mss = 1500 - 40 - 12;
            assertThat(mss).isEqualTo(1448);
            double bound = TBF_RATE * (double) mss / (mss + 66);
            assertThat(bound).isCloseTo(191_281_373.8, within(0.1));
            double windowS = receiver.get("window_ns").asLong() / 1e9;
            double goodput = receiver.get("window_bytes").asLong() * 8 / windowS;
            // Above the bound: tbf starts with a full bucket, one burst beyond the rate. And the receiver's
            // window counts what it read inside it, which includes what waited in its socket when the window
            // opened, at most its applied SO_RCVBUF (the kernel's 2 x 131072 = 262144 bytes, which bound the
            // queued skbs' memory, itself more than their payload): both over the window, in bit/s
            long rcvbufApplied = r.get("rcvbuf_applied").asLong();
            assertThat(rcvbufApplied).isEqualTo(2L * RCVBUF);
            double allowance = (TBF_BURST + rcvbufApplied) * 8 / windowS;
            System.out.printf(Locale.ROOT, "tbf 200 Mbit/s, TCP %s: goodput %.3f Mbit/s over %.3f s, bound %.3f Mbit/s"
                            + " (+ %.3f allowed), found/bound %.4f%n", direction, goodput / 1e6, windowS, bound / 1e6,
                    allowance / 1e6, goodput / bound);
            assertThat(goodput).as(r.toString()).isLessThanOrEqualTo(bound + allowance);
            assertThat(goodput).isPositive();
        }
    }
}
