package io.linerate.peers.agent.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PeerSecret;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Protocol;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.RrResult;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Either end of {@link TwoHostsAgentTest}, run in a JVM of its own inside one of the two hosts.
 *
 * <ul>
 *   <li>{@code serve BIND SECRET_FILE}: starts an agent on BIND, an ephemeral port, prints
 *       {@code listening PORT} and serves until its standard input ends.
 *   <li>{@code stream HOST PORT SECRET_FILE tcp|udp forward|reverse FAMILY PAYLOAD RATE DURATION_MS RCVBUF}:
 *       runs one stream against that agent (RATE 0 is unlimited, RCVBUF 0 is the kernel's default)
 *       and prints both ends' counts as one JSON line: {@code local}, {@code remote} (each with
 *       {@code sender}, {@code bytes}, {@code messages}, {@code window_bytes}, {@code window_messages},
 *       {@code window_ns}), {@code udp} ({@code sent}, {@code received}, {@code lost}) for UDP,
 *       {@code rcvbuf_applied} (the receiving end's SO_RCVBUF as the kernel applied it, bytes) and
 *       {@code invalid}, the joined result's invalid reasons. With {@code bidir} for the direction:
 *       {@code forward} and {@code reverse}, each such an object. With {@code forward-N} or
 *       {@code reverse-N}: N streams in one session, {@code streams} (each such an object) and
 *       {@code sum} ({@code local_bytes}, {@code remote_bytes}, for UDP {@code udp}).
 *   <li>{@code pingpong HOST PORT SECRET_FILE tcp|udp}: a ping-pong of 32 and 64 B over IPv4,
 *       its spec's endpoint the agent with its secret ({@link AgentPeer}), run through
 *       {@link Transports#select} as the {@code rr} one is;
 *       prints {@code round_trips}, {@code bytes} (of those round trips), {@code agent_echoes},
 *       {@code agent_echoed_bytes} and {@code invalid}.
 *   <li>{@code rr HOST PORT SECRET_FILE FLOWS}: request/response, 100 B requests and 200 B
 *       responses, over IPv4; prints {@code completed}, {@code served}, {@code accepts}, {@code notes}
 *       (the report's) and {@code invalid}.
 * </ul>
 */
public final class TwoHostsAgentPeer {
    private static final ObjectMapper JSON = new ObjectMapper();

    private TwoHostsAgentPeer() {}

    public static void main(String[] args) throws Exception {
        if (args[0].equals("serve")) {
            byte[] secret = SecretFile.read(Path.of(args[2]));
            try (Agent agent = Agent.start(new AgentConfig(InetAddress.getByName(args[1]), 0, Optional.of(secret),
                    AgentLimits.defaults(), AgentConfig.DEFAULT_HANDSHAKE_TIMEOUT))) {
                System.out.println("listening " + agent.address().getPort());
                System.out.flush();
                System.in.readAllBytes();
            }
            return;
        }
        if (args[0].equals("pingpong") || args[0].equals("rr")) {
            System.out.println(JSON.writeValueAsString(latency(args)));
            return;
        }
        Protocol protocol = args[4].equals("tcp") ? Protocol.TCP : Protocol.UDP;
        String direction = args[5];
        boolean reverse = direction.startsWith("reverse");
        TransferSpec.Builder b = TransferSpec.builder().protocol(protocol)
                .family(args[6].equals("6") ? AddressFamily.IPV6 : AddressFamily.IPV4)
                .payloadBytes(Integer.parseInt(args[7]))
                .duration(Duration.ofMillis(Long.parseLong(args[9]))).warmup(Duration.ofMillis(500))
                .interval(Duration.ofMillis(500)).ioTimeout(Duration.ofSeconds(10))
                .endpoint(Endpoint.remote(args[1], Integer.parseInt(args[2])));
        long rate = Long.parseLong(args[8]);
        if (rate > 0) {
            b.rateBitsPerSecond(rate);
        }
        int rcvbuf = Integer.parseInt(args[10]);
        if (rcvbuf > 0) {
            b.receiveBufferBytes(rcvbuf);
        }
        TransferSpec spec = b.build();
        Optional<byte[]> secret = Optional.of(SecretFile.read(Path.of(args[3])));
        ObjectNode out;
        if (direction.equals("bidir")) {
            RemoteBidirResult r = RemoteBidir.run(spec, Clock.system(), secret, IntervalListener.NONE, IntervalListener.NONE);
            out = JSON.createObjectNode();
            out.set("forward", stream(r.forward()));
            out.set("reverse", stream(r.reverse()));
            r.invalidReasons().forEach(out.putArray("invalid")::add);
        } else if (direction.contains("-")) {
            int n = Integer.parseInt(direction.substring(direction.indexOf('-') + 1));
            RemoteParallelResult r;
            try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec, Clock.system(), new RemoteOptions(secret, reverse, n))) {
                r = t.runStreams((i, sample) -> { });
            }
            out = JSON.createObjectNode();
            var streams = out.putArray("streams");
            r.streams().forEach(x -> streams.add(stream(x)));
            ObjectNode sum = out.putObject("sum").put("local_bytes", r.bytes("local")).put("remote_bytes", r.bytes("remote"));
            r.udpSum().ifPresent(u -> sum.putObject("udp").put("sent", u[0]).put("received", u[1]).put("lost", u[2]));
            r.invalidReasons().forEach(out.putArray("invalid")::add);
        } else {
            RemoteStreamResult r;
            try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec, Clock.system(), new RemoteOptions(secret, reverse))) {
                r = t.runBothEnds(IntervalListener.NONE);
            }
            out = stream(r);
        }
        System.out.println(JSON.writeValueAsString(out));
    }

    private static ObjectNode stream(RemoteStreamResult r) {
        ObjectNode out = JSON.createObjectNode();
        out.set("local", end(r.local()));
        out.set("remote", end(r.remote()));
        r.transfer().udp().ifPresent(u -> out.putObject("udp").put("sent", u.datagramsSent())
                .put("received", u.datagramsReceived()).put("lost", u.lost()));
        out.put("rcvbuf_applied", r.transfer().options().receiveBufferApplied());
        r.transfer().invalidReasons().forEach(out.putArray("invalid")::add);
        return out;
    }

    /** At most 200 round trips per size after 20, within 50..300 ms. */
    private static final IterationPolicy SHORT = new IterationPolicy(Duration.ofMillis(50), Duration.ofMillis(300), 20,
            200, Duration.ZERO, 0);

    /** Runs the spec on the one road: the transport {@link Transports#select} picks opens it through the agent's protocol. */
    private static MeasurementResult run(MeasurementSpec spec, String[] args) throws Exception {
        // an argument after the latency run's own names this host's transport, as --transport does
        String transport = args.length > 5 ? args[5] : null;
        try (Measurement m = Transports.select(transport, spec).open(spec, Clock.system())) {
            return m.run();
        }
    }

    private static ObjectNode latency(String[] args) throws Exception {
        AgentPeer peer = AgentPeer.builder(Endpoint.remote(args[1], Integer.parseInt(args[2])))
                .secret(PeerSecret.of(SecretFile.read(Path.of(args[3])))).build();
        ObjectNode out = JSON.createObjectNode();
        if (args[0].equals("pingpong")) {
            PingPongSpec spec = PingPongSpec.builder().protocol(args[4].equals("tcp") ? PingPongProtocol.TCP
                            : PingPongProtocol.UDP).sizes(List.of(32, 64)).policy(SHORT).timeout(Duration.ofSeconds(5))
                    .endpoint(peer).build();
            RemotePingPongResult r = (RemotePingPongResult) run(spec, args);
            out.put("round_trips", r.local().roundTrips()).put("bytes", r.bytesSent())
                    .put("agent_echoes", r.agentEchoes()).put("agent_echoed_bytes", r.agentEchoedBytes());
            r.local().options().tcpMss().ifPresent(m -> out.put("tcp_mss", m.bytes()).put("tcp_mss_source", m.derivation()));
            r.invalidReasons().forEach(out.putArray("invalid")::add);
            out.set("detail", JSON.readTree(r.detailJson().toString()));
        } else {
            RrSpec spec = RrSpec.builder().flows(Integer.parseInt(args[4])).requestBytes(100).responseBytes(200)
                    .warmup(Duration.ofMillis(100)).duration(Duration.ofMillis(500)).timeout(Duration.ofSeconds(5))
                    .endpoint(peer).build();
            RrResult r = (RrResult) run(spec, args);
            out.put("completed", r.completed()).put("served", r.served()).put("accepts", r.accepts());
            r.report().notes().forEach(out.putArray("notes")::add);
            r.invalidReasons().forEach(out.putArray("invalid")::add);
            out.set("detail", JSON.readTree(r.detailJson().toString()));
        }
        return out;
    }

    private static ObjectNode end(EndCounters e) {
        return JSON.createObjectNode().put("sender", e.sender()).put("bytes", e.bytes()).put("messages", e.messages())
                .put("window_bytes", e.windowBytes()).put("window_messages", e.windowMessages())
                .put("window_ns", e.windowNanos()).put("foreign", e.foreign());
    }
}
