package io.linerate.examples.cli;

import io.linerate.core.AgentPeer;
import io.linerate.core.Endpoint;
import io.linerate.core.Iperf2Peer;
import io.linerate.core.Iperf2UdpHeader;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.PeerDirection;
import io.linerate.core.PeerSecret;
import io.linerate.peers.agent.client.RemoteOptions;
import io.linerate.peers.agent.client.SecretFile;
import io.linerate.peers.iperf2.Iperf2HeaderVariant;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code stream}'s options for running against a peer that is not in this JVM; a picocli mixin. */
final class PeerOptions {
    /** {@code --peer-protocol} of linerate's own agent ({@code linerate serve}). */
    static final String LINERATE = "linerate";
    /** {@code --peer-protocol} of an unmodified iperf3 server. */
    static final String IPERF3 = "iperf3";
    /** {@code --peer-protocol} of an unmodified iperf 2 server. */
    static final String IPERF2 = "iperf2";

    @Option(names = "--peer", paramLabel = "HOST:PORT",
            description = "Run the far end on a peer at HOST:PORT (name:port, IPv4:port or [IPv6]:port) instead of both "
                    + "ends in this JVM: linerate's agent (`linerate serve`) or an iperf3 or iperf 2 server (--peer-protocol).")
    String peer;

    @Option(names = "--peer-protocol", paramLabel = "linerate|iperf3|iperf2", defaultValue = LINERATE,
            description = "What the peer speaks: linerate (the agent of `linerate serve`; takes a duration bound), iperf3 "
                    + "(an unmodified iperf3 -s) or iperf2 (an unmodified iperf -s / iperf -s -u; forward only) "
                    + "(default: ${DEFAULT-VALUE}).")
    String protocol;

    @Option(names = "--secret-file", paramLabel = "FILE", description = "With --peer and the linerate agent: its shared secret.")
    java.nio.file.Path secretFile;

    @Option(names = {"--reverse", "-R"}, description = "With --peer or -c: the peer sends and this host receives (iperf3's -R).")
    boolean reverse;

    @Option(names = "--bidir", description = "With --peer or -c: both directions at once, each reported apart (iperf3's "
            + "--bidir). With linerate's agent: two sessions on the agent; with an iperf3 server: iperf3's bidirectional "
            + "test, --parallel streams each way.")
    boolean bidir;

    @Option(names = {"--parallel", "-P"}, defaultValue = "1", paramLabel = "N",
            description = "With --peer or -c: data streams, 1..128 (iperf3's -P), reported per stream and summed; --rate and "
                    + "--bytes are the whole test's. With linerate's agent: one session of N data connections.")
    int parallel;

    @Option(names = "--udp-counters-64bit", description = "With --peer: 64-bit UDP sequence numbers (iperf3's --udp-counters-64bit).")
    boolean udpCounters64Bit;

    @Option(names = "--iperf2-header", paramLabel = "seq64|seq32|legacy", defaultValue = "seq64",
            description = "With --peer-protocol iperf2, UDP: the datagram header sent: seq64 (current iperf 2, 64-bit ids; "
                    + "Debian's iperf 2 expects it), seq32 (zperf's 16-byte layout, 32-bit ids) or legacy (iperf 2.0.5 "
                    + "and older, 12 bytes) (default: ${DEFAULT-VALUE}).")
    String iperf2Header;

    @Option(names = "--tcp-drain", defaultValue = "0s", converter = Converters.DurationConverter.class,
            description = "With --peer, TCP, linerate sending: wait this long after the last write before TEST_END, so the "
                    + "server reads what is in flight (iperf3's server stops counting at TEST_END; default: ${DEFAULT-VALUE}).")
    Duration tcpDrain;

    private static void addIf(List<String> to, boolean given, String option) {
        if (given) {
            to.add(option);
        }
    }

    /**
     * @param protocolGiven whether {@code --peer-protocol} was on the command line
     * @param warmupGiven whether {@code --warmup} was on the command line
     * @throws IllegalArgumentException naming the option when a peer option is given without
     *     {@code --peer}, or the protocol is unknown, or an option belongs to the other protocol
     */
    void check(boolean protocolGiven, boolean warmupGiven) {
        if (peer == null && protocolGiven) {
            throw new IllegalArgumentException("--peer-protocol " + protocol + " applies to a stream with --peer "
                    + "HOST:PORT only; without --peer both ends run in this JVM");
        }
        if (peer != null && protocol.equals(IPERF3) && warmupGiven) {
            throw new IllegalArgumentException("--warmup applies to linerate's own ends only: iperf3's server has no "
                    + "warm-up, and with --peer-protocol iperf3 both ends count the whole test (iperf3's -O omit is "
                    + "not asked for); leave --warmup out");
        }
        if (!protocol.equals(LINERATE) && !protocol.equals(IPERF3) && !protocol.equals(IPERF2)) {
            throw new IllegalArgumentException("peer protocol '" + protocol + "' is not supported; allowed: linerate, iperf3, "
                    + "iperf2");
        }
        if (peer != null && protocol.equals(IPERF2) && warmupGiven) {
            throw new IllegalArgumentException("--warmup applies to linerate's own ends only: iperf 2's server counts the "
                    + "whole test; leave --warmup out");
        }
        if (protocol.equals(IPERF2) && (reverse || bidir || parallel != 1 || udpCounters64Bit || !tcpDrain.isZero()
                || secretFile != null)) {
            throw new IllegalArgumentException("--peer-protocol iperf2 runs one stream forward only: --reverse, --bidir, "
                    + "--parallel, --udp-counters-64bit, --tcp-drain and --secret-file do not apply");
        }
        if (peer == null) {
            List<String> given = new ArrayList<>();
            addIf(given, reverse, "--reverse");
            addIf(given, bidir, "--bidir");
            addIf(given, secretFile != null, "--secret-file");
            addIf(given, parallel != 1, "--parallel");
            addIf(given, udpCounters64Bit, "--udp-counters-64bit");
            addIf(given, !tcpDrain.isZero(), "--tcp-drain");
            if (!given.isEmpty()) {
                throw new IllegalArgumentException(String.join(", ", given) + (given.size() == 1 ? " applies" : " apply")
                        + " to a stream with --peer HOST:PORT only; without --peer both ends run in this JVM");
            }
        }
        if (bidir && reverse) {
            throw new IllegalArgumentException("--bidir runs both directions; --reverse picks one: give one of them");
        }
        if (protocol.equals(LINERATE) && (udpCounters64Bit || !tcpDrain.isZero())) {
            throw new IllegalArgumentException("--udp-counters-64bit and --tcp-drain apply to "
                    + "--peer-protocol iperf3 only");
        }
        if (protocol.equals(LINERATE) && (parallel < RemoteOptions.MIN_STREAMS || parallel > RemoteOptions.MAX_STREAMS)) {
            throw new IllegalArgumentException("--parallel " + parallel + " is out of range; allowed: "
                    + RemoteOptions.MIN_STREAMS + ".." + RemoteOptions.MAX_STREAMS);
        }
        if (bidir && parallel != 1 && protocol.equals(LINERATE)) {
            throw new IllegalArgumentException("--bidir with --parallel " + parallel + " is not supported: --bidir runs "
                    + "one stream each way with linerate's agent; give one of them");
        }
        if (protocol.equals(IPERF3) && secretFile != null) {
            throw new IllegalArgumentException("--secret-file applies to linerate's agent; an iperf3 server takes no secret");
        }
    }

    /**
     * @return the spec's endpoint: loopback without {@code --peer}; else linerate's agent (with its
     *     secret, direction and streams), an iperf3 server or an iperf 2 server, as
     *     {@code --peer-protocol} says
     * @throws IllegalArgumentException naming a bad {@code --peer}, {@code --iperf2-header} or an
     *     unreadable secret file
     */
    Endpoint endpoint() {
        if (peer == null) {
            return Endpoint.loopback();
        }
        Endpoint.Remote at = Endpoint.parse(peer);
        PeerDirection direction = bidir ? PeerDirection.BOTH : reverse ? PeerDirection.REVERSE : PeerDirection.FORWARD;
        return switch (protocol) {
            case IPERF3 -> Iperf3Peer.builder(at).direction(direction).parallel(parallel)
                    .udpCounters64Bit(udpCounters64Bit).tcpDrain(tcpDrain).build();
            case IPERF2 -> new Iperf2Peer(at, Iperf2UdpHeader.valueOf(Iperf2HeaderVariant.parse(iperf2Header).name()));
            default -> AgentPeer.builder(at).direction(direction).streams(parallel)
                    .secret(secretFile == null ? null : PeerSecret.of(SecretFile.read(secretFile))).build();
        };
    }
}
