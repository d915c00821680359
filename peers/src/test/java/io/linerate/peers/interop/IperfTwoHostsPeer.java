package io.linerate.peers.interop;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.iperf2.Iperf2Agent;
import io.linerate.peers.iperf2.Iperf2Client;
import io.linerate.peers.iperf2.Iperf2HeaderVariant;
import io.linerate.peers.iperf2.Iperf2Result;
import io.linerate.peers.iperf2.Iperf2ServedTest;
import io.linerate.peers.iperf2.Iperf2ServerConfig;
import io.linerate.peers.iperf3.Iperf3Agent;
import io.linerate.peers.iperf3.Iperf3BidirResult;
import io.linerate.peers.iperf3.Iperf3Client;
import io.linerate.peers.iperf3.Iperf3Options;
import io.linerate.peers.iperf3.Iperf3Result;
import io.linerate.peers.iperf3.Iperf3ServerConfig;
import io.linerate.peers.server.AllowFrom;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Either end of {@link IperfTwoHostsTest}, run in a JVM of its own inside one of the two hosts. It
 * reads commands from its standard input, one a line, and answers each with one JSON line.
 *
 * <ul>
 *   <li>{@code serve BIND ALLOW_FROM}: starts linerate's iperf3 and iperf 2 servers on BIND
 *       (ephemeral ports; what {@code linerate serve --iperf3} and {@code serve --iperf2} run with
 *       {@code --bind BIND --allow-from ALLOW_FROM}), prints {@code listening IPERF3_PORT IPERF2_PORT},
 *       then answers {@code iperf2-test N} with the N-th test the iperf 2 server completed (waiting
 *       at most 15 s for it), until its standard input ends.
 *   <li>{@code client}: prints {@code ready}, then runs one test a line against a real server:
 *       {@code iperf3 HOST PORT tcp|udp forward|reverse|bidir PARALLEL RATE PAYLOAD} or
 *       {@code iperf2 HOST PORT tcp|udp RATE PAYLOAD}, 1 s each (RATE 0 is unlimited), and prints
 *       linerate's counts and the server's, or {@code {"error": message}}.
 * </ul>
 */
public final class IperfTwoHostsPeer {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The I/O timeout of every client run and both servers. */
    static final Duration IO_TIMEOUT = Duration.ofSeconds(5);

    private IperfTwoHostsPeer() {}

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        if (args[0].equals("serve")) {
            serve(InetAddress.getByName(args[1]), AllowFrom.parse(args[2]), in);
            return;
        }
        System.out.println("ready");
        System.out.flush();
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.trim().split(" ");
            ObjectNode out;
            try {
                out = f[0].equals("iperf3") ? iperf3(f) : iperf2(f);
            } catch (Exception e) {
                out = JSON.createObjectNode().put("error", e.toString());
            }
            System.out.println(JSON.writeValueAsString(out));
            System.out.flush();
        }
    }

    private static void serve(InetAddress bind, AllowFrom allow, BufferedReader in) throws Exception {
        try (Iperf3Agent a3 = Iperf3Agent.start(new Iperf3ServerConfig(bind, 0, allow, AgentLimits.defaults(), IO_TIMEOUT));
             Iperf2Agent a2 = Iperf2Agent.start(new Iperf2ServerConfig(bind, 0, allow, AgentLimits.defaults(), IO_TIMEOUT))) {
            System.out.println("listening " + a3.address().getPort() + " " + a2.address().getPort());
            System.out.flush();
            for (String line; (line = in.readLine()) != null; ) {
                int n = Integer.parseInt(line.trim().split(" ")[1]);
                long until = System.nanoTime() + 15_000_000_000L;
                while (a2.completed().size() < n && System.nanoTime() < until) {
                    Thread.sleep(10);
                }
                ObjectNode out = JSON.createObjectNode();
                if (a2.completed().size() < n) {
                    out.put("error", "the iperf 2 server completed " + a2.completed().size() + " tests within 15 s, not " + n);
                } else {
                    Iperf2ServedTest t = a2.completed().get(n - 1);
                    out.put("udp", t.udp()).put("bytes", t.bytes()).put("end", t.end())
                            .put("header", t.header().map(Iperf2HeaderVariant::cliName).orElse(""));
                    t.report().ifPresent(r -> out.putObject("report").put("bytes", r.bytes()).put("datagrams", r.datagrams())
                            .put("errors", r.errors()).put("received", r.received()));
                }
                System.out.println(JSON.writeValueAsString(out));
                System.out.flush();
            }
        }
    }

    private static TransferSpec.Builder spec(String protocol, long rate, int payload) {
        TransferSpec.Builder b = TransferSpec.builder().protocol(protocol.equals("udp") ? Protocol.UDP : Protocol.TCP)
                .payloadBytes(payload).duration(Duration.ofSeconds(1)).ioTimeout(IO_TIMEOUT).trafficClass(0);
        if (rate > 0) {
            b.rateBitsPerSecond(rate);
        }
        return b;
    }

    /**
     * {@code iperf3 HOST PORT tcp|udp forward|reverse|bidir PARALLEL RATE PAYLOAD}; for bidir, one
     * object per direction under {@code forward} and {@code reverse}.
     */
    private static ObjectNode iperf3(String[] f) throws Exception {
        boolean reverse = f[4].equals("reverse");
        boolean bidir = f[4].equals("bidir");
        // a TCP sender waits 500 ms before TEST_END, so that iperf3's server reads what is in flight
        Iperf3Options o = Iperf3Options.defaults().withReverse(reverse).withParallel(Integer.parseInt(f[5]))
                .withTcpDrain(Duration.ofMillis(f[3].equals("tcp") && !reverse ? 500 : 0));
        TransferSpec spec = spec(f[3], Long.parseLong(f[6]), Integer.parseInt(f[7])).build();
        if (bidir) {
            Iperf3BidirResult r = Iperf3Client.runBidir(f[1], Integer.parseInt(f[2]), spec, o);
            ObjectNode out = JSON.createObjectNode();
            out.set("forward", describe(r.forward()));
            out.set("reverse", describe(r.reverse()));
            return out;
        }
        return describe(Iperf3Client.run(f[1], Integer.parseInt(f[2]), spec, o));
    }

    private static ObjectNode describe(Iperf3Result r) {
        ObjectNode out = JSON.createObjectNode();
        out.putObject("local").put("bytes", r.local().bytes()).put("datagrams", r.local().datagrams())
                .put("distinct", r.local().distinct()).put("duplicates", r.local().duplicates());
        out.putObject("remote").put("bytes", r.remoteBytes()).put("packets", r.remotePackets())
                .put("errors", r.remoteErrors()).put("streams", r.remote().size());
        out.put("lost", r.lost());
        out.put("server_read_all", r.serverReadAll().map(String::valueOf).orElse(""));
        r.notes().forEach(out.putArray("notes")::add);
        return out;
    }

    /** {@code iperf2 HOST PORT tcp|udp RATE PAYLOAD}. */
    private static ObjectNode iperf2(String[] f) throws Exception {
        Iperf2Result r = Iperf2Client.run(f[1], Integer.parseInt(f[2]),
                spec(f[3], Long.parseLong(f[4]), Integer.parseInt(f[5])).build(), Iperf2HeaderVariant.SEQ64);
        ObjectNode out = JSON.createObjectNode();
        out.putObject("local").put("bytes", r.local().bytes()).put("datagrams", r.local().datagrams());
        out.put("received", r.received()).put("lost", r.lost());
        r.remote().ifPresent(rep -> out.putObject("report").put("bytes", rep.bytes()).put("datagrams", rep.datagrams())
                .put("errors", rep.errors()).put("received", rep.received()));
        r.notes().forEach(out.putArray("notes")::add);
        return out;
    }
}
