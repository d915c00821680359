package io.linerate.peers.iperf3;

import java.time.Duration;
import java.util.Objects;

/**
 * What a run against an iperf3 server adds to the {@link io.linerate.core.TransferSpec}.
 *
 * @param reverse whether the server sends and linerate receives (iperf3's {@code -R})
 * @param parallel data streams, 1..128 (iperf3's {@code -P}); the spec's rate and byte or message
 *     count are the whole test's, split evenly over the streams
 * @param udpCounters64Bit whether UDP datagrams carry 64-bit sequence numbers (iperf3's
 *     {@code --udp-counters-64bit}); otherwise 32-bit
 * @param tcpDrain TCP, linerate sending: time between the last write (and the FIN after it) and
 *     TEST_END, 0..1 min. iperf3's server stops reading at TEST_END and closes its streams with
 *     whatever it has not read yet, which its count then lacks; a drain gives it time to read them
 *     (iperf3's own client waits none: 0)
 */
public record Iperf3Options(boolean reverse, int parallel, boolean udpCounters64Bit, Duration tcpDrain) {
    /** Most parallel streams accepted (iperf3's own limit is 128). */
    public static final int MAX_PARALLEL = 128;

    /** @throws IllegalArgumentException naming a value outside its range */
    public Iperf3Options {
        Objects.requireNonNull(tcpDrain, "tcpDrain");
        if (parallel < 1 || parallel > MAX_PARALLEL) {
            throw new IllegalArgumentException("parallel streams " + parallel + " is out of range; allowed: 1.." + MAX_PARALLEL);
        }
        if (tcpDrain.isNegative() || tcpDrain.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new IllegalArgumentException("TCP drain " + io.linerate.core.Units.text(tcpDrain) + " is out of range; allowed: 0 ms..1 min");
        }
    }

    /** @return one stream, linerate sending, 32-bit UDP counters, no drain */
    public static Iperf3Options defaults() {
        return new Iperf3Options(false, 1, false, Duration.ZERO);
    }

    /** @return these options with {@code reverse} set */
    public Iperf3Options withReverse(boolean v) {
        return new Iperf3Options(v, parallel, udpCounters64Bit, tcpDrain);
    }

    /** @return these options with {@code parallel} set */
    public Iperf3Options withParallel(int v) {
        return new Iperf3Options(reverse, v, udpCounters64Bit, tcpDrain);
    }

    /** @return these options with {@code udpCounters64Bit} set */
    public Iperf3Options withUdpCounters64Bit(boolean v) {
        return new Iperf3Options(reverse, parallel, v, tcpDrain);
    }

    /** @return these options with {@code tcpDrain} set */
    public Iperf3Options withTcpDrain(Duration v) {
        return new Iperf3Options(reverse, parallel, udpCounters64Bit, v);
    }
}
