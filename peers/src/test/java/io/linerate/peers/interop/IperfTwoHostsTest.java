package io.linerate.peers.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.netns.NamespaceProcess;
import io.linerate.netns.NetworkNamespace;
import io.linerate.testsupport.PeerTool;
import io.linerate.testsupport.TwoHosts;
import io.linerate.testsupport.TwoHostsOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * linerate's iperf3 and iperf 2 clients and servers against the real ones across a real link:
 * {@link TwoHosts} joins two network namespaces with a veth pair (MTU 1500). Clients run in host A
 * (198.18.0.1), servers in host B (198.18.0.2): linerate's in one JVM of its own in each host
 * ({@link IperfTwoHostsPeer}), the real {@code iperf3} (Debian 3.12) and {@code iperf} (Debian
 * 2.1.8) as processes inside the hosts, one one-off server per test. linerate's servers are bound
 * to 198.18.0.2 and allow 198.18.0.0/15, as {@code serve --iperf3 --bind 198.18.0.2 --allow-from
 * 198.18.0.0/15} runs them. Needs Linux, root and both binaries; skipped with the reason otherwise.
 *
 * <p>Every assertion is an identity that holds under any load: both tools' counts of the same bytes
 * agree exactly, UDP's sent = received + lost by linerate's count, and the peer's own report (its
 * {@code -J} JSON or {@code -y C} CSV) carries the same numbers linerate saw exchanged. None expects
 * zero loss or a rate. Bidirectional tests run both ways round: linerate's client against
 * {@code iperf3 -s}, and {@code iperf3 -c --bidir} against linerate's server.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class IperfTwoHostsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(60);
    private static final String B = TwoHosts.IPV4_B;
    /** UDP datagram size of every UDP test, bytes (1400 + 8 + 20 fits the 1500-byte MTU). */
    private static final int UDP_LEN = 1400;

    private static TwoHosts hosts;
    private static Peer server;
    private static Peer client;
    private static int linerateIperf3Port;
    private static int linerateIperf2Port;
    /** Tests linerate's iperf 2 server has completed so far. */
    private static int iperf2Served;
    /** Next port for a real server in host B: a fresh namespace, so nothing else holds it. */
    private static int nextPort = 5201;
    /**
     * Bytes a TCP test may leave unread at TEST_END: what the sender's send buffer and the receiver's
     * receive buffer hold at most (the third fields of tcp_wmem and tcp_rmem; the larger of the two hosts').
     */
    private static long unreadBound;

    @BeforeAll
    static void hostsAndServers() throws Exception {
        PeerTool.require("iperf3", "iperf3");
        PeerTool.require("iperf", "iperf");
        TwoHostsOptions options = TwoHostsOptions.builder().build(); // MTU 1500, no shaping
        Optional<String> why = TwoHosts.unavailableReason(options);
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
        hosts = TwoHosts.create(options);
        server = Peer.start(hosts.b(), List.of("serve", B, "198.18.0.0/15"));
        client = Peer.start(hosts.a(), List.of("client"));
        String[] listening = server.line().split(" ");
        assertThat(listening[0]).isEqualTo("listening");
        linerateIperf3Port = Integer.parseInt(listening[1]);
        linerateIperf2Port = Integer.parseInt(listening[2]);
        assertThat(client.line()).isEqualTo("ready");
        unreadBound = Math.max(thirdField(hosts.a(), "/proc/sys/net/ipv4/tcp_wmem"), thirdField(hosts.b(), "/proc/sys/net/ipv4/tcp_wmem"))
                + Math.max(thirdField(hosts.a(), "/proc/sys/net/ipv4/tcp_rmem"), thirdField(hosts.b(), "/proc/sys/net/ipv4/tcp_rmem"));
    }

    @AfterAll
    static void removeHosts() {
        if (hosts != null) {
            hosts.close();
        }
    }


    private static long thirdField(TwoHosts.Host host, String file) throws IOException {
        NetworkNamespace.Result r = hosts.exec(host, List.of("cat", file), T);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return Long.parseLong(r.stdout().trim().split("\\s+")[2]);
    }

    /** A process inside one host whose output lines are queued as they come; the hosts' close stops it. */
    private static final class Peer {
        private final NamespaceProcess process;
        private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final Thread reader;

        private Peer(NamespaceProcess process) {
            this.process = process;
            this.reader = pump(new BufferedReader(new InputStreamReader(process.process().getInputStream(), StandardCharsets.UTF_8)),
                    lines::add);
            pump(new BufferedReader(new InputStreamReader(process.process().getErrorStream(), StandardCharsets.UTF_8)),
                    l -> System.err.println(String.join(" ", process.command()).replaceAll(".* -cp \\S+ ", "") + ": " + l));
        }

        /** Starts {@link IperfTwoHostsPeer} with {@code args} in a JVM inside {@code host}. */
        static Peer start(TwoHosts.Host host, List<String> args) throws IOException {
            return new Peer(hosts.start(host, TwoHosts.javaCommand(IperfTwoHostsPeer.class.getName(), args)));
        }

        /** Starts {@code command} inside {@code host}. */
        static Peer command(TwoHosts.Host host, List<String> command) throws IOException {
            return new Peer(hosts.start(host, command));
        }

        private static Thread pump(BufferedReader in, java.util.function.Consumer<String> to) {
            Thread t = new Thread(() -> {
                try (in) {
                    for (String l; (l = in.readLine()) != null; ) {
                        to.accept(l);
                    }
                } catch (IOException ignored) {
                    // the process ended
                }
            }, "iperf-two-hosts-output");
            t.setDaemon(true);
            t.start();
            return t;
        }

        /** @return the next output line, waiting at most 60 s */
        String line() throws InterruptedException {
            String l = lines.poll(60, TimeUnit.SECONDS);
            assertThat(l).as("a line from %s within 60 s", process.command()).isNotNull();
            return l;
        }

        /** @return the next output line containing {@code text}, waiting at most 60 s */
        String await(String text) throws InterruptedException {
            while (true) {
                String l = line();
                if (l.contains(text)) {
                    return l;
                }
            }
        }

        /** Sends one command line and returns the JSON line that answers it. */
        JsonNode ask(String command) throws Exception {
            OutputStream out = process.process().getOutputStream();
            out.write((command + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            JsonNode r = JSON.readTree(line());
            assertThat(r.has("error")).as("%s: %s", command, r).isFalse();
            return r;
        }

        /** Waits (at most 30 s) until {@code port} is bound in its host, read from the process's own /proc view. */
        Peer awaitBound(int port, boolean udp) throws Exception {
            // /proc/net/{tcp,udp} print the address as the host-order word of its bytes: 198.18.0.2 is 020012C6
            String local = String.format(Locale.ROOT, "020012C6:%04X ", port);
            Path table = Path.of("/proc", Long.toString(process.pid()), "net", udp ? "udp" : "tcp");
            long until = System.nanoTime() + 30_000_000_000L;
            while (!Files.readAllLines(table).stream().anyMatch(l -> l.contains(local))) {
                assertThat(System.nanoTime()).as("%s bound port %d within 30 s", process.command(), port).isLessThan(until);
                assertThat(process.process().isAlive()).as("%s is running", process.command()).isTrue();
                Thread.sleep(10);
            }
            return this;
        }

        /** Waits (at most 30 s) for the process to exit and returns all it printed. */
        String finish() throws Exception {
            assertThat(process.process().waitFor(30, TimeUnit.SECONDS)).as("%s exits", process.command()).isTrue();
            reader.join(10_000);
            return String.join("\n", new ArrayList<>(lines));
        }

        void stop() {
            process.close();
        }
    }

    private static int port() {
        return nextPort++;
    }

    private static long bytes(JsonNode n) {
        return n.path("bytes").asLong();
    }

    // --- linerate's iperf3 client in host A against `iperf3 -s` in host B -------------------------------

    @ParameterizedTest(name = "linerate iperf3 client, {0} {1} x{2}, against iperf3 -s")
    @CsvSource({"tcp,forward,1", "tcp,reverse,1", "tcp,forward,2", "udp,forward,1", "udp,reverse,1", "udp,forward,2"})
    void linerateIperf3ClientAgainstIperf3Server(String protocol, String direction, int parallel) throws Exception {
        int port = port();
        Peer srv = Peer.command(hosts.b(), List.of(PeerTool.onPath("iperf3"), "-s", "-1", "-J", "-B", B, "-p", Integer.toString(port)))
                .awaitBound(port, false);
        boolean udp = protocol.equals("udp");
        JsonNode r = client.ask(String.join(" ", "iperf3", B, Integer.toString(port), protocol, direction,
                Integer.toString(parallel), udp ? "50000000" : "0", udp ? Integer.toString(UDP_LEN) : "131072"));
        JsonNode end = JSON.readTree(srv.finish()).path("end");
        System.out.printf(Locale.ROOT, "linerate iperf3 client %s %s x%d: %s%n", protocol, direction, parallel, r);

        // the server's own report has one entry per stream, as it exchanged them
        assertThat(end.path("streams")).hasSize(parallel);
        boolean forward = direction.equals("forward");
        assertDirection(udp, forward, parallel, r, end.path(forward ? "sum_received" : "sum_sent"));
    }

    /**
     * linerate's iperf3 client running iperf3's bidirectional test: {@code parallel} streams each way.
     * Each direction holds the same identities as a one-way test of it.
     */
    @ParameterizedTest(name = "linerate iperf3 client, {0} bidir x{1}, against iperf3 -s")
    @CsvSource({"tcp,1", "tcp,2", "udp,1", "udp,2"})
    void linerateIperf3ClientBidirAgainstIperf3Server(String protocol, int parallel) throws Exception {
        int port = port();
        Peer srv = Peer.command(hosts.b(), List.of(PeerTool.onPath("iperf3"), "-s", "-1", "-J", "-B", B, "-p", Integer.toString(port)))
                .awaitBound(port, false);
        boolean udp = protocol.equals("udp");
        JsonNode r = client.ask(String.join(" ", "iperf3", B, Integer.toString(port), protocol, "bidir",
                Integer.toString(parallel), udp ? "50000000" : "0", udp ? Integer.toString(UDP_LEN) : "131072"));
        JsonNode end = JSON.readTree(srv.finish()).path("end");
        System.out.printf(Locale.ROOT, "linerate iperf3 client %s bidir x%d: %s%n", protocol, parallel, r);
        // the server opened parallel streams each way
        assertThat(end.path("streams")).hasSize(2 * parallel);
        // iperf3 3.12's server -J (seen running it): what it received of the client's streams is sum_received, what
        // it sent on its own is sum_sent_bidir_reverse (its sum_sent and sum_received_bidir_reverse are zeros)
        assertDirection(udp, true, parallel, r.path("forward"), end.path("sum_received"));
        assertDirection(udp, false, parallel, r.path("reverse"), end.path("sum_sent_bidir_reverse"));
    }

    /**
     * One direction's identities between linerate's counts ({@code r}: local, remote as exchanged) and
     * the server's own -J sum for it ({@code got}: what it received when linerate sent, else what it sent).
     */
    private static void assertDirection(boolean udp, boolean forward, int parallel, JsonNode r, JsonNode got) {
        JsonNode local = r.path("local");
        JsonNode remote = r.path("remote");
        assertThat(remote.path("streams").asInt()).isEqualTo(parallel);
        if (!udp && forward) {
            // the server's -J is the count it exchanged: the same bytes, counted once
            assertThat(bytes(got)).isEqualTo(bytes(remote)).isPositive();
            if (r.path("server_read_all").asText().equals("true")) {
                // it closed cleanly, having read every byte linerate wrote: exact over the whole transfer
                assertThat(bytes(remote)).isEqualTo(bytes(local));
            } else {
                // it reset its streams with bytes unread; the result says how many
                assertThat(r.path("notes").toString()).contains((bytes(local) - bytes(remote)) + " fewer");
                assertThat(bytes(remote)).isLessThan(bytes(local)).isGreaterThanOrEqualTo(bytes(local) - parallel * unreadBound);
            }
        } else if (!udp) {
            // linerate reads each stream to the server's close after TEST_END: every byte the server wrote
            assertThat(bytes(got)).isEqualTo(bytes(remote)).isEqualTo(bytes(local)).isPositive();
        } else if (forward) {
            assertThat(bytes(got)).isEqualTo(bytes(remote));
            assertThat(got.path("packets").asLong()).isEqualTo(remote.path("packets").asLong());
            assertThat(got.path("lost_packets").asLong()).isEqualTo(remote.path("errors").asLong());
            long sent = local.path("datagrams").asLong();
            assertThat(bytes(local)).isEqualTo(sent * UDP_LEN);
            assertThat(bytes(remote) % UDP_LEN).isZero();
            long received = bytes(remote) / UDP_LEN;
            // linerate's loss: sent = received + lost
            assertThat(received + r.path("lost").asLong()).isEqualTo(sent).isPositive();
            // iperf3 counts up to the highest sequence number it saw (no tail loss), less its gaps; a veth
            // neither duplicates nor reorders, so that is what it received
            assertThat(remote.path("packets").asLong()).isLessThanOrEqualTo(sent);
            assertThat(received).isEqualTo(remote.path("packets").asLong() - remote.path("errors").asLong());
        } else {
            long serverSent = got.path("packets").asLong();
            assertThat(serverSent).isEqualTo(remote.path("packets").asLong()).isPositive();
            assertThat(bytes(got)).isEqualTo(bytes(remote)).isEqualTo(serverSent * UDP_LEN);
            assertThat(local.path("duplicates").asLong()).isZero();
            assertThat(bytes(local)).isEqualTo(local.path("datagrams").asLong() * UDP_LEN);
            // linerate's loss: the server's sent = received (distinct) + lost
            assertThat(local.path("distinct").asLong() + r.path("lost").asLong()).isEqualTo(serverSent);
        }
    }

    // --- the real `iperf3 -c` in host A against linerate's iperf3 server in host B ----------------------

    @ParameterizedTest(name = "iperf3 -c {0} {1} against linerate's server")
    @CsvSource({"tcp,''", "tcp,-R", "tcp,--bidir", "tcp,-P 2", "udp,''", "udp,-R", "udp,--bidir", "udp,-P 2"})
    void realIperf3ClientAgainstLinerateServer(String protocol, String extra) throws Exception {
        boolean udp = protocol.equals("udp");
        List<String> cmd = new ArrayList<>(List.of(PeerTool.onPath("iperf3"), "-c", B, "-p", Integer.toString(linerateIperf3Port),
                "-t", "1", "-J", "--get-server-output"));
        cmd.addAll(udp ? List.of("-u", "-b", "50M", "-l", Integer.toString(UDP_LEN)) : List.of("-l", "128K"));
        if (!extra.isEmpty()) {
            cmd.addAll(List.of(extra.split(" ")));
        }
        NetworkNamespace.Result res = hosts.exec(hosts.a(), cmd, T);
        assertThat(res.exitCode()).as(res.stdout() + res.stderr()).isZero();
        JsonNode json = JSON.readTree(res.stdout());
        JsonNode end = json.path("end");
        JsonNode server = json.path("server_output_json").path("sum");
        System.out.printf(Locale.ROOT, "iperf3 -c %s %s: end %s, server %s%n", protocol, extra, end, server);
        int streams = extra.equals("-P 2") ? 2 : extra.equals("--bidir") ? 2 : 1;
        assertThat(end.path("streams")).hasSize(streams);
        boolean up = !extra.equals("-R");
        boolean down = extra.equals("-R") || extra.equals("--bidir");
        String downSent = extra.equals("--bidir") ? "sum_sent_bidir_reverse" : "sum_sent";
        String downReceived = extra.equals("--bidir") ? "sum_received_bidir_reverse" : "sum_received";
        if (up && !udp) {
            long sent = bytes(end.path("sum_sent"));
            // iperf3's sum_received is linerate's count, exchanged; linerate's own report says the same
            assertThat(bytes(end.path("sum_received"))).isEqualTo(server.path("bytes_received").asLong())
                    .isLessThanOrEqualTo(sent).isGreaterThanOrEqualTo(sent - streams * unreadBound).isPositive();
        }
        if (down && !udp) {
            long sent = bytes(end.path(downSent));
            // the sender's count iperf3 prints is linerate's, exchanged; iperf3 stops reading at TEST_END
            assertThat(sent).isEqualTo(server.path("bytes_sent").asLong()).isPositive();
            assertThat(bytes(end.path(downReceived))).isLessThanOrEqualTo(sent).isGreaterThanOrEqualTo(sent - unreadBound);
        }
        if (up && udp) {
            long sentPackets = end.path("sum_sent").path("packets").asLong();
            long receivedBytes = server.path("bytes_received").asLong();
            assertThat(receivedBytes % UDP_LEN).isZero();
            long lost = server.path("lost_packets").asLong();
            // linerate counts loss against the datagrams the client says it sent: sent = received + lost exactly
            assertThat(receivedBytes / UDP_LEN + lost).isEqualTo(sentPackets).isPositive();
            JsonNode got = end.path("sum_received");
            assertThat(bytes(got)).isEqualTo(receivedBytes);
            assertThat(got.path("lost_packets").asLong()).isEqualTo(lost);
            assertThat(got.path("packets").asLong()).isEqualTo(sentPackets);
        }
        if (down && udp) {
            JsonNode sent = end.path(downSent);
            long sentPackets = sent.path("packets").asLong();
            assertThat(sentPackets).isPositive();
            assertThat(bytes(sent)).isEqualTo(sentPackets * UDP_LEN).isEqualTo(server.path("bytes_sent").asLong());
            // iperf3 counts up to the highest sequence number it saw, so loss at the tail is not in its figure
            JsonNode got = end.path(downReceived);
            long packets = got.path("packets").asLong();
            assertThat(packets).isPositive().isLessThanOrEqualTo(sentPackets);
            assertThat(bytes(got)).isEqualTo((packets - got.path("lost_packets").asLong()) * UDP_LEN);
        }
    }

    // --- linerate's iperf 2 client in host A against `iperf -s` in host B ---------------------------------

    @ParameterizedTest(name = "linerate iperf 2 client, {0}, against iperf -s")
    @CsvSource({"tcp", "udp"})
    void linerateIperf2ClientAgainstIperfServer(String protocol) throws Exception {
        boolean udp = protocol.equals("udp");
        int port = port();
        List<String> cmd = new ArrayList<>(List.of("stdbuf", "-oL", PeerTool.onPath("iperf"), "-s", "-y", "C", "-B", B, "-p",
                Integer.toString(port)));
        if (udp) {
            cmd.add("-u");
        }
        Peer srv = Peer.command(hosts.b(), cmd).awaitBound(port, udp);
        try {
            JsonNode r = client.ask(String.join(" ", "iperf2", B, Integer.toString(port), protocol,
                    udp ? "20000000" : "0", udp ? "1000" : "131072"));
            System.out.printf(Locale.ROOT, "linerate iperf 2 client %s: %s%n", protocol, r);
            // iperf -s -y C: the 8th field is the bytes it counted
            String[] f = srv.await("," + B + "," + port + ",").split(",");
            JsonNode local = r.path("local");
            if (!udp) {
                // no report comes back over TCP, and the result says so; it says nothing else
                assertThat(r.path("notes")).hasSize(1);
                assertThat(r.path("notes").get(0).asText()).startsWith("iperf 2's TCP server sends no report");
                // iperf 2's server does not count the client header's 4-byte flags word (0: nothing follows)
                assertThat(Long.parseLong(f[7])).isEqualTo(bytes(local) - 4).isPositive();
                return;
            }
            JsonNode rep = r.path("report");
            long sent = local.path("datagrams").asLong();
            assertThat(bytes(local)).isEqualTo(sent * 1000);
            // linerate's loss: sent = received + lost
            assertThat(r.path("received").asLong() + r.path("lost").asLong()).isEqualTo(sent).isPositive();
            // the server counts the same datagrams in all (the final id made positive) and what it received
            assertThat(rep.path("datagrams").asLong()).isEqualTo(sent);
            assertThat(rep.path("received").asLong()).isEqualTo(r.path("received").asLong());
            // its CSV: bytes (8th field), errors (11th), datagrams in all (12th) are the report's
            assertThat(Long.parseLong(f[7])).isEqualTo(bytes(rep));
            assertThat(Long.parseLong(f[10])).isEqualTo(rep.path("errors").asLong());
            assertThat(Long.parseLong(f[11])).isEqualTo(sent);
        } finally {
            srv.stop();
        }
    }

    // --- the real `iperf -c` in host A against linerate's iperf 2 server in host B -------------------------

    @ParameterizedTest(name = "iperf -c {0} against linerate's server")
    @CsvSource({"tcp", "udp"})
    void realIperf2ClientAgainstLinerateServer(String protocol) throws Exception {
        boolean udp = protocol.equals("udp");
        List<String> cmd = new ArrayList<>(List.of(PeerTool.onPath("iperf"), "-c", B, "-p", Integer.toString(linerateIperf2Port),
                "-t", "1", "-y", "C"));
        cmd.addAll(udp ? List.of("-u", "-b", "20M", "-l", "1000") : List.of("-l", "65536"));
        NetworkNamespace.Result res = hosts.exec(hosts.a(), cmd, T);
        assertThat(res.exitCode()).as(res.stdout() + res.stderr()).isZero();
        JsonNode t = server.ask("iperf2-test " + (++iperf2Served));
        System.out.printf(Locale.ROOT, "iperf -c %s: %s, served %s%n", protocol, res.stdout().strip(), t);
        assertThat(t.path("udp").asBoolean()).isEqualTo(udp);
        // the client's own CSV line (its 8th field: the bytes it sent; the server report is not in it)
        List<String> csv = res.stdout().lines().filter(l -> l.contains("," + B + ",")).toList();
        assertThat(csv).hasSize(1);
        long clientBytes = Long.parseLong(csv.get(0).split(",")[7]);
        if (!udp) {
            // linerate reads the connection to its end: every byte the client wrote, its header among them
            assertThat(t.path("bytes").asLong()).isEqualTo(clientBytes).isPositive();
            assertThat(t.path("end").asText()).isEqualTo("done");
            return;
        }
        assertThat(t.path("header").asText()).isEqualTo("seq64");
        assertThat(res.stdout() + res.stderr()).doesNotContain("did not receive ack");
        JsonNode rep = t.path("report");
        // every datagram is 1000 bytes: linerate's byte count is its received count
        assertThat(bytes(rep)).isEqualTo(rep.path("received").asLong() * 1000);
        // the client's bytes, its final datagram included, are the datagrams linerate counts in all (received + lost)
        assertThat(clientBytes).isEqualTo(rep.path("datagrams").asLong() * 1000).isPositive();
    }

    /**
     * iperf 2.1.8 re-sends its final datagram, each time with an id one higher, until a report
     * reaches it. nft in host A drops the first three reports from linerate's server (the rule of
     * the zephyr #90253 reproduction): the client sends four finals, and the report it finally gets
     * is still the first final's, its datagrams in all the client's own, not three more.
     */
    @Test
    void realIperf2ClientWhoseFirstThreeReportsAreDroppedGetsTheFirstFinalsReport() throws Exception {
        String nft = PeerTool.require("nft", "nftables");
        String table = "linerate_drop_reports";
        NetworkNamespace.Result add = hosts.exec(hosts.a(), List.of(nft, "add table inet " + table + "; "
                + "add chain inet " + table + " in { type filter hook input priority 0; policy accept; }; "
                + "add rule inet " + table + " in udp sport " + linerateIperf2Port + " numgen inc mod 4 != 3 counter drop"), T);
        assertThat(add.exitCode()).as(add.stderr()).isZero();
        try {
            NetworkNamespace.Result res = hosts.exec(hosts.a(), List.of(PeerTool.onPath("iperf"), "-c", B, "-p",
                    Integer.toString(linerateIperf2Port), "-t", "1", "-u", "-b", "20M", "-l", "1000"), T);
            assertThat(res.exitCode()).as(res.stdout() + res.stderr()).isZero();
            JsonNode t = server.ask("iperf2-test " + (++iperf2Served));
            NetworkNamespace.Result rules = hosts.exec(hosts.a(), List.of(nft, "list table inet " + table), T);
            System.out.printf(Locale.ROOT, "iperf -c -u, 3 reports dropped: %s%nserved %s%n%s%n", res.stdout().strip(), t,
                    rules.stdout());
            assertThat(rules.stdout()).as("the first three reports were dropped, the fourth let through")
                    .contains("counter packets 3 ");
            assertThat(res.stdout() + res.stderr()).doesNotContain("did not receive ack");
            // the report the client printed: "... 0.008 ms 0/940 (0%)" after its "Server Report:" line
            List<String> out = res.stdout().lines().toList();
            int at = out.stream().filter(l -> l.contains("Server Report:")).findFirst().map(out::indexOf).orElse(-1);
            assertThat(at).as("the client printed the server's report").isNotNegative();
            Matcher m = Pattern.compile(" (\\d+)/(\\d+) \\(")
                    .matcher(String.join("\n", out.subList(at, out.size())));
            assertThat(m.find()).as("lost/total in %s", out.subList(at, out.size())).isTrue();
            JsonNode rep = t.path("report");
            // the server recorded its report at the first final: the one the client got after three re-sends is that one
            assertThat(Long.parseLong(m.group(2))).as("total").isEqualTo(rep.path("datagrams").asLong()).isPositive();
            assertThat(Long.parseLong(m.group(1))).as("lost").isEqualTo(rep.path("errors").asLong());
            assertThat(rep.path("datagrams").asLong() - rep.path("received").asLong()).isEqualTo(rep.path("errors").asLong());
        } finally {
            hosts.exec(hosts.a(), List.of(nft, "delete table inet " + table), T);
        }
    }
}
