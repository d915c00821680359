package io.linerate.examples.cli;

import java.time.Duration;
import picocli.CommandLine.Option;

/** {@code stream}'s options for running against a peer that is not in this JVM; a picocli mixin. */
final class PeerOptions {
    @Option(names = "--peer", paramLabel = "HOST:PORT",
            description = "Run against a server at HOST:PORT ([v6 literal]:PORT) instead of both ends in this JVM.")
    String peer;

    @Option(names = "--peer-protocol", paramLabel = "iperf3", defaultValue = "iperf3",
            description = "What the peer speaks: iperf3 (an unmodified iperf3 -s; default).")
    String protocol;

    @Option(names = {"--reverse", "-R"}, description = "With --peer: the server sends, linerate receives (iperf3's -R).")
    boolean reverse;

    @Option(names = {"--parallel", "-P"}, defaultValue = "1", paramLabel = "N",
            description = "With --peer: data streams, 1..128 (iperf3's -P); --rate and --bytes are the whole test's.")
    int parallel;

    @Option(names = "--udp-counters-64bit", description = "With --peer: 64-bit UDP sequence numbers (iperf3's --udp-counters-64bit).")
    boolean udpCounters64Bit;

    @Option(names = "--tcp-drain", defaultValue = "0s", converter = Converters.DurationConverter.class,
            description = "With --peer, TCP, linerate sending: wait this long after the last write before TEST_END, so the "
                    + "server reads what is in flight (iperf3's server stops counting at TEST_END; default: ${DEFAULT-VALUE}).")
    Duration tcpDrain;
}
