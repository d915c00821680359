package io.linerate.nio.agent;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.engine.EndCounters;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
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
 *       {@code invalid}, the joined result's invalid reasons.
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
        Protocol protocol = args[4].equals("tcp") ? Protocol.TCP : Protocol.UDP;
        boolean reverse = args[5].equals("reverse");
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
        RemoteStreamResult r;
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(b.build(), Clock.system(),
                new RemoteOptions(Optional.of(SecretFile.read(Path.of(args[3]))), reverse))) {
            r = t.runBothEnds(IntervalListener.NONE);
        }
        ObjectNode out = JSON.createObjectNode();
        out.set("local", end(r.local()));
        out.set("remote", end(r.remote()));
        r.transfer().udp().ifPresent(u -> out.putObject("udp").put("sent", u.datagramsSent())
                .put("received", u.datagramsReceived()).put("lost", u.lost()));
        out.put("rcvbuf_applied", r.transfer().options().receiveBufferApplied());
        r.transfer().invalidReasons().forEach(out.putArray("invalid")::add);
        System.out.println(JSON.writeValueAsString(out));
    }

    private static ObjectNode end(EndCounters e) {
        return JSON.createObjectNode().put("sender", e.sender()).put("bytes", e.bytes()).put("messages", e.messages())
                .put("window_bytes", e.windowBytes()).put("window_messages", e.windowMessages())
                .put("window_ns", e.windowNanos()).put("foreign", e.foreign());
    }
}
